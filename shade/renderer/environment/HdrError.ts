/** A Radiance `.hdr` file that cannot be read: the message names the file and what is wrong with it. */
export class HdrError extends Error {
    /** The name the file was given to `parse_hdr` (its URL or path). */
    readonly file: string;

    constructor(file: string, problem: string) {
        super(`${file}: ${problem}`);
        this.name = "HdrError";
        this.file = file;
    }
}

/** One error of a WGSL module, at its 1-based line and column, with the line's text. */
export interface ShaderCompileMessage {
    readonly line: number;
    readonly column: number;
    readonly message: string;
    /** The source line the error is on, trimmed. */
    readonly source: string;
}

/**
 * A WGSL module that does not compile. The message names the shader's label and quotes every failing line:
 * `WGSL shader 'trails draw shader' does not compile:\n  line 12:5: unresolved value 'x'\n    let a = x;`.
 */
export class ShaderCompileError extends Error {
    readonly label: string;
    readonly messages: readonly ShaderCompileMessage[];

    constructor(label: string, messages: readonly ShaderCompileMessage[]) {
        const detail = messages.map((m) => `  line ${m.line}:${m.column}: ${m.message}\n    ${m.source}`).join("\n");
        super(`WGSL shader '${label}' does not compile:\n${detail}`);
        this.name = "ShaderCompileError";
        this.label = label;
        this.messages = messages;
    }
}

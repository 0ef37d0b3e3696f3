/**
 * A pipeline key made of a fixed number of parts (shader id, blend mode, cull mode, formats...). `set` compares
 * each part with what it held; the joined string is made again only after a part changed, so reading `value`
 * every frame allocates nothing while the parts stay the same (PlayCanvas builds its `buildKey` string on every
 * check; we rebuild it only on change).
 */
export class PipelineKey {
    readonly #parts: (string | number)[];
    #value = "";
    #dirty = true;
    #changes = 0;

    constructor(part_count: number) {
        if (!(Number.isInteger(part_count) && part_count >= 1)) throw new RangeError(`PipelineKey: part_count must be a positive integer, got ${String(part_count)}`);
        this.#parts = new Array<string | number>(part_count).fill("");
    }

    /** Sets part `index`; returns true when it changed. */
    set(index: number, part: string | number): boolean {
        if (!(index >= 0 && index < this.#parts.length)) throw new RangeError(`PipelineKey.set: index ${index} outside [0, ${this.#parts.length})`);
        if (this.#parts[index] === part) return false;
        this.#parts[index] = part;
        this.#dirty = true;
        return true;
    }

    /** The parts joined by `|`. */
    get value(): string {
        if (this.#dirty) {
            this.#value = this.#parts.join("|");
            this.#dirty = false;
            this.#changes++;
        }
        return this.#value;
    }

    /** How many distinct values `value` has produced (for inspection and tests). */
    get changes(): number {
        return this.#changes;
    }
}

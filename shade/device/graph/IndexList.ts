/** A list of integers that is cleared by count, never by `length = 0` (which makes V8 trim, then regrow, the backing store). */
export class IndexList {
    readonly items: number[] = [];
    length = 0;
    push(value: number): void {
        this.items[this.length++] = value;
    }
    pop(): number {
        return this.items[--this.length];
    }
    clear(): void {
        this.length = 0;
    }
    includes(value: number): boolean {
        const items = this.items;
        for (let i = 0; i < this.length; i++) if (items[i] === value) return true;
        return false;
    }
    *[Symbol.iterator](): IterableIterator<number> {
        for (let i = 0; i < this.length; i++) yield this.items[i];
    }
}

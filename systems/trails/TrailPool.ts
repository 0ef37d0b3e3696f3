/** Words (4 bytes) per trail record: head xyz+time, colour, head and tail gradient, newest, count, max age, width. */
export const TRAIL_RECORD_WORDS = 20;
export const TRAIL_RECORD_BYTES = TRAIL_RECORD_WORDS * 4;
export const RECORD_HEAD = 0;
export const RECORD_COLOR = 4;
export const RECORD_HEAD_GRADIENT = 8;
export const RECORD_TAIL_GRADIENT = 12;
export const RECORD_NEWEST = 16;
export const RECORD_COUNT = 17;
export const RECORD_MAX_AGE = 18;
export const RECORD_WIDTH = 19;
/** Bytes per ring point: xyz and the time it was laid down. */
export const POINT_BYTES = 16;

/**
 * The CPU truth of every trail (GPU-free): fixed-capacity rings of points, one per trail slot, in one
 * array (`points`, slot `s` owns points `[s * segments, (s + 1) * segments)`), and one record per slot
 * (`records`) with the live head, colours, where the ring's newest point is and how many it holds.
 *
 * The GPU side mirrors it: the records go up whole each frame (they hold the moving head), ring points only
 * when laid down (`pending`: their indices, scattered into the GPU ring by a compute pass), or all at once
 * after a new device, a growth or a backlog (`full_upload`). Nothing allocates once the capacity is reached.
 */
export class TrailPool {
    readonly segments: number;
    /** Trail slots the arrays hold now (grows x2). */
    capacity = 0;
    points = new Float32Array(0);
    records_f32 = new Float32Array(0);
    records_u32 = new Uint32Array(0);
    /** One past the highest slot in use: the draw covers slots [0, high_water). */
    high_water = 0;
    /** Slots in use. */
    live = 0;
    /** Bumped when the arrays are replaced (GPU buffers must follow). */
    generation = 0;

    /** Global indices of ring points laid down since the last upload (duplicates harmless). */
    pending = new Uint32Array(1024);
    pending_count = 0;
    /** The whole ring array must go up (new device, growth, a backlog past `pending`). */
    full_upload = true;

    // per slot
    newest: Int32Array<ArrayBuffer> = new Int32Array(0);
    count: Int32Array<ArrayBuffer> = new Int32Array(0);
    last_commit = new Float64Array(0);
    was_spawning = new Uint8Array(0);
    clear_seen = new Uint32Array(0);

    #used = new Uint8Array(0);
    #free = new Int32Array(0);
    #free_count = 0;

    constructor(segments: number, initial_capacity: number) {
        if (!(Number.isInteger(segments) && segments >= 2 && segments <= 4096)) {
            throw new RangeError(`Trail3DSystem: segments must be an integer in [2, 4096], got ${String(segments)}`);
        }
        this.segments = segments;
        this.#grow(Math.max(1, initial_capacity | 0));
    }

    /** A fresh, empty slot. */
    allocate(): number {
        if (this.#free_count === 0) this.#grow(this.capacity * 2);
        const slot = this.#free[--this.#free_count];
        if (slot >= this.high_water) this.high_water = slot + 1;
        this.live++;
        this.#used[slot] = 1;
        this.reset(slot);
        return slot;
    }

    /** Returns `slot` to the pool; its record draws nothing from the next upload on. */
    free(slot: number): void {
        const at = slot * TRAIL_RECORD_WORDS;
        this.records_f32.fill(0, at, at + TRAIL_RECORD_WORDS);
        this.count[slot] = 0;
        this.#used[slot] = 0;
        this.#free[this.#free_count++] = slot;
        this.live--;
        // keep the draw range tight when the top slots go
        while (this.high_water > 0 && this.#used[this.high_water - 1] === 0) this.high_water--;
    }

    /** Empties `slot`'s ring. */
    reset(slot: number): void {
        this.count[slot] = 0;
        this.newest[slot] = this.segments - 1;
        this.last_commit[slot] = Number.NEGATIVE_INFINITY;
        this.was_spawning[slot] = 0;
        this.records_u32[slot * TRAIL_RECORD_WORDS + RECORD_COUNT] = 0;
    }

    /** Lays down a ring point at (x, y, z) at `time` as `slot`'s newest. */
    commit(slot: number, x: number, y: number, z: number, time: number): void {
        const segments = this.segments;
        let newest = this.newest[slot] + 1;
        if (newest === segments) newest = 0;
        this.newest[slot] = newest;
        if (this.count[slot] < segments) this.count[slot]++;
        this.last_commit[slot] = time;
        const index = slot * segments + newest;
        const at = index * 4;
        const points = this.points;
        points[at] = x;
        points[at + 1] = y;
        points[at + 2] = z;
        points[at + 3] = time;
        if (this.full_upload) return;
        if (this.pending_count === this.pending.length) {
            // a backlog (frames not drawn): one whole upload beats an ever longer list
            this.full_upload = true;
            this.pending_count = 0;
            return;
        }
        this.pending[this.pending_count++] = index;
    }

    /** Marks everything for upload (a new device or GPU buffers). */
    invalidate(): void {
        this.full_upload = true;
        this.pending_count = 0;
    }

    /** Frees every slot. */
    clear_all(): void {
        this.high_water = 0;
        this.live = 0;
        this.records_f32.fill(0);
        this.count.fill(0);
        this.#used.fill(0);
        for (let i = 0; i < this.capacity; i++) this.#free[i] = this.capacity - 1 - i;
        this.#free_count = this.capacity;
        this.invalidate();
    }

    #grow(capacity: number): void {
        const old = this.capacity;
        const segments = this.segments;
        const points = new Float32Array(capacity * segments * 4);
        points.set(this.points);
        this.points = points;
        const records = new ArrayBuffer(capacity * TRAIL_RECORD_BYTES);
        const records_f32 = new Float32Array(records);
        records_f32.set(this.records_f32);
        this.records_f32 = records_f32;
        this.records_u32 = new Uint32Array(records);
        this.newest = grow_i32(this.newest, capacity);
        this.count = grow_i32(this.count, capacity);
        const last_commit = new Float64Array(capacity);
        last_commit.set(this.last_commit);
        this.last_commit = last_commit;
        const was_spawning = new Uint8Array(capacity);
        was_spawning.set(this.was_spawning);
        this.was_spawning = was_spawning;
        const clear_seen = new Uint32Array(capacity);
        clear_seen.set(this.clear_seen);
        this.clear_seen = clear_seen;
        const used = new Uint8Array(capacity);
        used.set(this.#used);
        this.#used = used;
        // new slots go on the free list, lowest on top
        const free = new Int32Array(capacity);
        free.set(this.#free.subarray(0, this.#free_count));
        let n = this.#free_count;
        for (let s = capacity - 1; s >= old; s--) free[n++] = s;
        this.#free = free;
        this.#free_count = n;
        // room for every slot laying down two points between uploads before a backlog forces a whole upload
        this.pending = new Uint32Array(Math.max(1024, capacity * 2));
        this.capacity = capacity;
        this.generation++;
        this.invalidate();
    }
}

function grow_i32(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
    const out = new Int32Array(capacity);
    out.set(array);
    return out;
}

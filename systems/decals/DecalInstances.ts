/** Floats per decal instance (see `DECAL_WGSL`'s `DecalInstance`). */
export const DECAL_INSTANCE_FLOATS = 24;
export const DECAL_INSTANCE_BYTES = DECAL_INSTANCE_FLOATS * 4;

/**
 * The CPU mirror of the decal instance buffer: one record per decal (centre, three unit axes with half
 * extents, colour, atlas rectangle), grow-only, with the range of records that changed since the last upload
 * (`dirty_from`..`dirty_to`, records): a writer compares before it stores, so a static decal field uploads
 * nothing frame after frame.
 */
export class DecalInstances {
    data: Float32Array;
    /** Live records, from 0. */
    count = 0;
    dirty_from = Number.MAX_SAFE_INTEGER;
    dirty_to = 0;
    /** Bumped when `data` is replaced (the GPU buffer must grow). */
    generation = 0;

    constructor(initial_capacity: number) {
        this.data = new Float32Array(Math.max(1, initial_capacity) * DECAL_INSTANCE_FLOATS);
    }

    get capacity(): number {
        return this.data.length / DECAL_INSTANCE_FLOATS;
    }

    /** Makes room for `count` records (doubling), keeping what is there. */
    reserve(count: number): void {
        if (count <= this.capacity) return;
        let capacity = this.capacity;
        while (capacity < count) capacity *= 2;
        const data = new Float32Array(capacity * DECAL_INSTANCE_FLOATS);
        data.set(this.data);
        this.data = data;
        this.generation++;
        this.mark_all();
    }


    /** Everything must go up again (a new device, a grown buffer). */
    mark_all(): void {
        this.dirty_from = 0;
        this.dirty_to = this.capacity;
    }

    clear_dirty(): void {
        this.dirty_from = Number.MAX_SAFE_INTEGER;
        this.dirty_to = 0;
    }
}

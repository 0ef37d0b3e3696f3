import type { Geometry } from "../geometry/Geometry.js";
import { draw_indices } from "../geometry/draw_indices.js";
import { MAX_DETAIL_LEVELS } from "../geometry/GeometryDetail.js";
import type { MeshSkin } from "../scene/MeshSkin.js";
import type { SkinBatch } from "./skinned_vertices.js";

/** A geometry's buffers on one device. */
export interface GPUGeometry {
    position: GPUBuffer;
    /** Last frame's positions (what the velocity product moves from): `position` itself for a rigid geometry. */
    previous_position: GPUBuffer;
    normal: GPUBuffer;
    /** Byte offsets of the positions, last frame's positions and normals in their buffers (a skinned mesh's slot in its group's; 0 otherwise). */
    position_offset: number;
    previous_offset: number;
    normal_offset: number;
    uv: GPUBuffer;
    /** Tangents (xyz, handedness w); zeros when the geometry has none (w = 0 reads as "none"). */
    tangent: GPUBuffer;
    /** The second uv set; zeros when the geometry has none. */
    uv1: GPUBuffer;
    index: GPUBuffer;
    /**
     * What passes reading positions alone draw with (shadow casters, motion): the index with vertices of one
     * position glued, in vertex cache order (`draw_indices`), or `index` itself. Same count and format as `index`.
     */
    position_index: GPUBuffer;
    /**
     * What the passes shading surfaces into the G-buffer (and its depth prepass) draw with: equal vertices glued
     * (across normals when `flat`), in vertex cache order, or `index` itself. Same count and format as `index`.
     */
    surface_index: GPUBuffer;
    /**
     * The geometry is flat-shaded (every vertex normal its face's) and `surface_index` glues vertices that only
     * their normals told apart: the G-buffer draws it with normals from screen derivatives (its "flat" pipelines).
     */
    flat: boolean;
    index_format: GPUIndexFormat;
    index_count: number;
    /**
     * The coarser levels of detail's indices (`Geometry.detail_levels`, in `index_format`) one after another, or
     * null when it has none.
     */
    detail_index: GPUBuffer | null;
    /** Levels a culled draw picks from: 1 + the geometry's detail levels. */
    levels: number;
    /**
     * Per level (`MAX_DETAIL_LEVELS` long): its first index (level 0: in whichever full index the pass draws
     * with; the others: in `detail_index`), its index count, and the screen size it is drawn below (level 0:
     * infinity).
     */
    level_first: Uint32Array;
    level_count: Uint32Array;
    level_screen: Float32Array;
    /** The `Geometry.detail_stamp` the levels were uploaded from. */
    detail_stamp: number;
    version: number;
    vertex_count: number;
    /**
     * A skinned mesh's batch (the skinning group whose buffers hold its vertices: meshes of one batch draw as one
     * instanced draw, pulling their vertices), else null.
     */
    skin_batch: SkinBatch | null;
    /** Where a batched skinned mesh's vertices start in its batch's buffers (a vertex index); 0 otherwise. */
    skin_base: number;
}

/**
 * Vertex and index buffers of static meshes' geometries on one device, uploaded the first time a geometry is
 * drawn and again when its `version` moves (`needsUpdate = true`). A lost device takes the cache with it.
 */
export class GPUGeometryCache {
    static readonly #shared = new WeakMap<GPUDevice, GPUGeometryCache>();

    /** The device's shared cache: every pass drawing static meshes on it (G-buffer, shadows) uses one copy of each geometry. */
    static of(device: GPUDevice): GPUGeometryCache {
        let cache = GPUGeometryCache.#shared.get(device);
        if (cache === undefined) {
            cache = new GPUGeometryCache(device);
            GPUGeometryCache.#shared.set(device, cache);
        }
        return cache;
    }

    readonly device: GPUDevice;
    readonly #entries = new WeakMap<Geometry, GPUGeometry>();
    readonly #skinned = new Map<MeshSkin, GPUGeometry>();
    // geometries uploaded before (on this device): only the first upload glues their positions' index
    readonly #uploaded = new WeakSet<Geometry>();
    // which optional attributes (1 tangent, 2 uv1) an entry's buffers hold
    readonly #optional = new WeakMap<GPUGeometry, number>();

    constructor(device: GPUDevice) {
        this.device = device;
    }

    /**
     * The buffers a mesh of `geometry` draws with: for a skinned mesh (`skin` not null) the skinning step's output
     * for that skin this frame (positions and normals skinned, the geometry's uvs and indices), else the
     * geometry's own.
     */
    get(geometry: Geometry, skin: MeshSkin | null): GPUGeometry {
        if (skin !== null) {
            const skinned = this.skinned(skin);
            if (skinned !== undefined) return skinned;
        }
        const entry = this.#entries.get(geometry);
        if (entry !== undefined && entry.version === geometry.version && entry.detail_stamp === geometry.detail_stamp) return entry;
        if (entry !== undefined && entry.version === geometry.version) {
            this.#upload_levels(geometry, entry);
            return entry;
        }
        return this.#upload(geometry, entry);
    }

    // kept apart from get(), which runs for every draw of every frame: a small function the JIT settles early
    #upload(geometry: Geometry, entry: GPUGeometry | undefined): GPUGeometry {
        const normal = geometry.attributes.normal;
        const uv = geometry.attributes.uv;
        if (normal === undefined) {
            throw new Error(
                "Mesh geometry has no normal attribute; lit meshes need normals (the make_*_geometry primitives have them)",
            );
        }
        const vertex_count = geometry.vertex_count;
        if (__SHADE_DEBUG__) check_indices(geometry.index, vertex_count);
        if (entry === undefined || entry.vertex_count < vertex_count || entry.index.size < geometry.index.byteLength) {
            entry?.position.destroy();
            entry?.normal.destroy();
            entry?.uv.destroy();
            entry?.tangent.destroy();
            entry?.uv1.destroy();
            entry?.index.destroy();
            entry?.detail_index?.destroy();
            if (entry !== undefined && entry.position_index !== entry.index) entry.position_index.destroy();
            if (entry !== undefined && entry.surface_index !== entry.index) entry.surface_index.destroy();
            const make = (what: string, size: number, usage: number) =>
                this.device.createBuffer({ label: `geometry ${what}`, size: Math.max(16, align4(size)), usage: usage | GPUBufferUsage.COPY_DST });
            // STORAGE too: the skinning step reads positions and normals as its source
            const position = make("positions", vertex_count * 12, GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE);
            const index = make("indices", geometry.index.byteLength, GPUBufferUsage.INDEX);
            entry = {
                position,
                previous_position: position,
                normal: make("normals", vertex_count * 12, GPUBufferUsage.VERTEX | GPUBufferUsage.STORAGE),
                position_offset: 0,
                previous_offset: 0,
                normal_offset: 0,
                uv: make("uvs", vertex_count * 8, GPUBufferUsage.VERTEX),
                tangent: make("tangents", vertex_count * 16, GPUBufferUsage.VERTEX),
                uv1: make("uv1s", vertex_count * 8, GPUBufferUsage.VERTEX),
                index,
                position_index: index,
                surface_index: index,
                flat: false,
                index_format: "uint16",
                index_count: 0,
                detail_index: null,
                levels: 1,
                level_first: new Uint32Array(MAX_DETAIL_LEVELS),
                level_count: new Uint32Array(MAX_DETAIL_LEVELS),
                level_screen: new Float32Array(MAX_DETAIL_LEVELS),
                detail_stamp: -1,
                version: -1,
                vertex_count,
                skin_batch: null,
                skin_base: 0,
            };
            this.#entries.set(geometry, entry);
        }
        const queue = this.device.queue;
        queue.writeBuffer(entry.position, 0, geometry.attributes.position.array);
        queue.writeBuffer(entry.normal, 0, normal.array);
        if (uv !== undefined) queue.writeBuffer(entry.uv, 0, uv.array);
        // new buffers are zeros; one that held tangents or uv1 for this geometry before is zeroed when they go
        const had = this.#optional.get(entry) ?? 0;
        const tangent = geometry.attributes.tangent;
        const uv1 = geometry.attributes.uv1;
        if (tangent !== undefined) queue.writeBuffer(entry.tangent, 0, tangent.array);
        else if ((had & 1) !== 0) queue.writeBuffer(entry.tangent, 0, new Float32Array(vertex_count * 4));
        if (uv1 !== undefined) queue.writeBuffer(entry.uv1, 0, uv1.array);
        else if ((had & 2) !== 0) queue.writeBuffer(entry.uv1, 0, new Float32Array(vertex_count * 2));
        this.#optional.set(entry, (tangent !== undefined ? 1 : 0) | (uv1 !== undefined ? 2 : 0));
        const index = geometry.index;
        write_index(queue, entry.index, index);
        // glued and ordered once, at the first upload: a geometry rewritten later (whose vertices may no longer be
        // equal where they were) draws with its own index rather than paying for this again and again. Its buffers
        // stay (render bundles recorded with them still name them), given the geometry's own index.
        if (!this.#uploaded.has(geometry)) {
            this.#uploaded.add(geometry);
            const drawn = draw_indices(geometry);
            entry.position_index = this.#index_buffer(entry, entry.position_index, drawn.position, "positions glued");
            entry.surface_index = this.#index_buffer(entry, entry.surface_index, drawn.surface, "surfaces glued");
            entry.flat = drawn.flat && drawn.surface !== null;
        } else {
            if (entry.position_index !== entry.index) write_index(queue, entry.position_index, index);
            if (entry.surface_index !== entry.index) write_index(queue, entry.surface_index, index);
            entry.flat = false;
        }
        entry.index_format = index instanceof Uint32Array ? "uint32" : "uint16";
        entry.index_count = index.length;
        entry.version = geometry.version;
        this.#upload_levels(geometry, entry);
        return entry;
    }

    // the coarser levels one after another in the entry's index format (a buffer kept while it is large enough)
    #upload_levels(geometry: Geometry, entry: GPUGeometry): void {
        const levels = geometry.detail_levels;
        entry.detail_stamp = geometry.detail_stamp;
        entry.levels = 1 + levels.length;
        entry.level_first[0] = 0;
        entry.level_count[0] = entry.index_count;
        entry.level_screen[0] = Number.POSITIVE_INFINITY;
        if (levels.length === 0) {
            entry.detail_index?.destroy();
            entry.detail_index = null;
            return;
        }
        let total = 0;
        for (const level of levels) total += level.index.length;
        const wide = entry.index_format === "uint32";
        const indices = wide ? new Uint32Array(total) : new Uint16Array(total + (total & 1));
        let first = 0;
        // an index past the vertices reads another mesh's (or zeros) with no error on the GPU: said here, as is one
        // a 16-bit index cannot hold
        const limit = wide ? geometry.vertex_count : Math.min(geometry.vertex_count, 65536);
        for (let l = 0; l < levels.length; l++) {
            const index = levels[l].index;
            for (let i = 0; i < index.length; i++) {
                if (index[i] >= limit) {
                    throw new RangeError(
                        `Geometry.detail_levels[${l}]: index ${i} is ${index[i]}, but the geometry has ${geometry.vertex_count} vertices` +
                            (index[i] >= geometry.vertex_count ? " (indices must be below the vertex count)" : " and a 16-bit index (levels index what the geometry's index can)"),
                    );
                }
            }
            indices.set(index, first);
            entry.level_first[l + 1] = first;
            entry.level_count[l + 1] = index.length;
            entry.level_screen[l + 1] = levels[l].screen_size;
            first += index.length;
        }
        if (entry.detail_index === null || entry.detail_index.size < indices.byteLength) {
            entry.detail_index?.destroy();
            entry.detail_index = this.device.createBuffer({
                label: "geometry indices (coarser levels of detail)",
                size: Math.max(16, align4(indices.byteLength)),
                usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST,
            });
        }
        this.device.queue.writeBuffer(entry.detail_index, 0, indices);
    }

    // `current` (the entry's index buffer or one of its own) holding `indices`, or the entry's index buffer when null
    #index_buffer(entry: GPUGeometry, current: GPUBuffer, indices: Uint16Array | Uint32Array | null, what: string): GPUBuffer {
        if (indices === null) {
            if (current !== entry.index) current.destroy();
            return entry.index;
        }
        let buffer = current;
        if (buffer === entry.index || buffer.size < entry.index.size) {
            if (buffer !== entry.index) buffer.destroy();
            buffer = this.device.createBuffer({ label: `geometry indices (${what})`, size: entry.index.size, usage: GPUBufferUsage.INDEX | GPUBufferUsage.COPY_DST });
        }
        write_index(this.device.queue, buffer, indices);
        return buffer;
    }

    /** The skinning step's output for `skin` on this device (undefined before it first skinned it). */
    skinned(skin: MeshSkin): GPUGeometry | undefined {
        // kept on the skin by the last cache it was set in: no map lookup per skinned mesh and pass
        if (skin.skinned_owner === this) return skin.skinned_entry as GPUGeometry;
        return this.#skinned.get(skin);
    }

    /** @internal the skinning step's output for `skin` (null: the skin is gone; its buffers are the step's to free) */
    set_skinned(skin: MeshSkin, entry: GPUGeometry | null): void {
        if (entry === null) {
            this.#skinned.delete(skin);
            if (skin.skinned_owner === this) {
                skin.skinned_owner = null;
                skin.skinned_entry = null;
            }
            return;
        }
        this.#skinned.set(skin, entry);
        skin.skinned_owner = this;
        skin.skinned_entry = entry;
    }
}

// An index past the vertex count reads another mesh's vertices (or zeros) on the GPU with no error: say so at
// upload, in development builds, as dynamic meshes do.
function check_indices(index: ArrayLike<number>, vertex_count: number): void {
    for (let i = 0; i < index.length; i++) {
        if (index[i] >= vertex_count) {
            throw new RangeError(
                `Mesh geometry: index ${i} is ${index[i]}, but the geometry has ${vertex_count} vertices (indices must be below the vertex count)`,
            );
        }
    }
}

function write_index(queue: GPUQueue, buffer: GPUBuffer, index: Uint16Array | Uint32Array): void {
    if (index.byteLength % 4 === 0) queue.writeBuffer(buffer, 0, index);
    else {
        // writeBuffer wants 4-byte multiples: an odd count of 16-bit indices goes through a padded copy
        const padded = new Uint16Array(index.length + 1);
        padded.set(index);
        queue.writeBuffer(buffer, 0, padded);
    }
}

function align4(n: number): number {
    return (n + 3) & ~3;
}

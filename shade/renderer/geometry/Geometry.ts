import { GeometryAttribute } from "./GeometryAttribute.js";
import { last_geometry_stamp, next_geometry_stamp } from "./geometry_stamp.js";
import { check_detail_levels, type GeometryDetailLevel } from "./GeometryDetail.js";

/**
 * A geometry's attributes: positions (xyz) and, optionally, a straight-alpha RGBA colour, a normal (xyz), two uv
 * sets (2 floats each), a tangent (xyz + handedness w) and four skin joints with their weights per vertex. The
 * dynamic mesh path reads position and colour; lit meshes read normal and uv; the rest is what glTF models carry.
 */
export interface GeometryAttributes {
    position: GeometryAttribute;
    color?: GeometryAttribute;
    normal?: GeometryAttribute;
    uv?: GeometryAttribute;
    uv1?: GeometryAttribute;
    tangent?: GeometryAttribute;
    joints?: GeometryAttribute;
    weights?: GeometryAttribute;
}

export interface GeometrySpec {
    /** xyz per vertex. */
    readonly position: Float32Array;
    /** RGBA per vertex (4 floats, straight alpha), multiplied with the mesh colour. Optional. */
    readonly color?: Float32Array;
    /** xyz per vertex, unit length. Optional (lit meshes need it). */
    readonly normal?: Float32Array;
    /** 2 floats per vertex. Optional. */
    readonly uv?: Float32Array;
    /** A second uv set, 2 floats per vertex (lightmaps, occlusion). Optional. */
    readonly uv1?: Float32Array;
    /** xyz + w per vertex: the tangent and the bitangent's sign (+1 or -1), as glTF stores it. Optional. */
    readonly tangent?: Float32Array;
    /** Four skin joint indices per vertex (whole numbers, stored as floats; exact below 2^24). Optional. */
    readonly joints?: Float32Array;
    /** Four skin weights per vertex, summing to 1; needs `joints`. Optional. */
    readonly weights?: Float32Array;
    /** Triangle list, three indices per triangle. */
    readonly index: Uint16Array | Uint32Array;
}

/**
 * A plain indexed triangle geometry, three.js-shaped: `attributes.position` (xyz), optional
 * `attributes.color` (RGBA per vertex, straight alpha; RGB is not accepted), `normal`, `uv`, `uv1`, `tangent`,
 * `joints` and `weights`, and an `index` (a triangle list).
 *
 * Nothing watches the arrays. Rewrite them (or replace them, even with a different length) and set
 * `needsUpdate = true`; every renderer that draws the geometry uploads it before its next draw and clears
 * the flag. Setting the flag bumps `version`, which is what renderers compare, so several batches or
 * renderers sharing one geometry each see the change even though the first to upload clears the flag.
 * Where only some attributes changed in place, flag those instead (`attributes.position.needsUpdate = true`):
 * that moves `version` as well, and the dynamic mesh path uploads just them.
 */
export class Geometry {
    readonly attributes: GeometryAttributes;
    index: Uint16Array | Uint32Array;
    #needs_update = false;
    #own_version = next_geometry_stamp();
    #detail_levels: readonly GeometryDetailLevel[] = [];
    #detail_stamp = 0;
    // `version` as last worked out, the last stamp then and the attributes it was worked out from (see `version`)
    #version = 0;
    #version_stamp = -1;
    readonly #version_attributes: (GeometryAttribute | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];

    constructor(spec: GeometrySpec) {
        this.attributes = { position: new GeometryAttribute(spec.position, 3) };
        const vertices = this.attributes.position.count;
        if (spec.color !== undefined) this.attributes.color = per_vertex("color", spec.color, 4, vertices);
        if (spec.normal !== undefined) this.attributes.normal = per_vertex("normal", spec.normal, 3, vertices);
        if (spec.uv !== undefined) this.attributes.uv = per_vertex("uv", spec.uv, 2, vertices);
        if (spec.uv1 !== undefined) this.attributes.uv1 = per_vertex("uv1", spec.uv1, 2, vertices);
        if (spec.tangent !== undefined) this.attributes.tangent = per_vertex("tangent", spec.tangent, 4, vertices);
        if (spec.joints !== undefined) this.attributes.joints = per_vertex("joints", spec.joints, 4, vertices);
        if (spec.weights !== undefined) this.attributes.weights = per_vertex("weights", spec.weights, 4, vertices);
        if ((spec.joints === undefined) !== (spec.weights === undefined)) {
            throw new RangeError(`Geometry: skin joints and weights come together; got ${spec.joints === undefined ? "weights" : "joints"} alone`);
        }
        this.index = spec.index;
        if (spec.index.length % 3 !== 0) {
            throw new RangeError(`Geometry: the index is a triangle list; ${spec.index.length} indices is not a multiple of 3`);
        }
    }

    /** True from `needsUpdate = true` (here or on an attribute) until a renderer uploads the geometry. */
    get needsUpdate(): boolean {
        const a = this.attributes;
        return (
            this.#needs_update ||
            a.position.needsUpdate ||
            a.color?.needsUpdate === true ||
            a.normal?.needsUpdate === true ||
            a.uv?.needsUpdate === true ||
            a.uv1?.needsUpdate === true ||
            a.tangent?.needsUpdate === true ||
            a.joints?.needsUpdate === true ||
            a.weights?.needsUpdate === true
        );
    }

    /**
     * `true` asks every renderer drawing this geometry to upload all of it again; renderers set it back to
     * false, which clears the attributes' flags too.
     */
    set needsUpdate(value: boolean) {
        if (value) {
            this.#own_version = next_geometry_stamp();
            this.#needs_update = true;
            return;
        }
        this.#needs_update = false;
        const a = this.attributes;
        a.position.needsUpdate = false;
        if (a.color !== undefined) a.color.needsUpdate = false;
        if (a.normal !== undefined) a.normal.needsUpdate = false;
        if (a.uv !== undefined) a.uv.needsUpdate = false;
        if (a.uv1 !== undefined) a.uv1.needsUpdate = false;
        if (a.tangent !== undefined) a.tangent.needsUpdate = false;
        if (a.joints !== undefined) a.joints.needsUpdate = false;
        if (a.weights !== undefined) a.weights.needsUpdate = false;
    }

    /**
     * Moves with every `needsUpdate = true`, the geometry's or an attribute's, and when an attribute is replaced
     * (by a new one, or by another geometry's); never repeats a value.
     */
    get version(): number {
        // a frame of a still scene asks each geometry several times (culling, bundles, draws): the attributes'
        // stamps are compared again only when some geometry somewhere was stamped since, or an attribute of this
        // one was swapped for another (an older one would not have moved the stamp: that counts as a change)
        const a = this.attributes;
        const seen = this.#version_attributes;
        const still = last_geometry_stamp() === this.#version_stamp;
        if (
            still &&
            a.position === seen[0] && a.color === seen[1] && a.normal === seen[2] && a.uv === seen[3] &&
            a.uv1 === seen[4] && a.tangent === seen[5] && a.joints === seen[6] && a.weights === seen[7]
        ) {
            return this.#version;
        }
        if (still) this.#own_version = next_geometry_stamp();
        let v = this.#own_version;
        if (a.position.version > v) v = a.position.version;
        if (a.color !== undefined && a.color.version > v) v = a.color.version;
        if (a.normal !== undefined && a.normal.version > v) v = a.normal.version;
        if (a.uv !== undefined && a.uv.version > v) v = a.uv.version;
        if (a.uv1 !== undefined && a.uv1.version > v) v = a.uv1.version;
        if (a.tangent !== undefined && a.tangent.version > v) v = a.tangent.version;
        if (a.joints !== undefined && a.joints.version > v) v = a.joints.version;
        if (a.weights !== undefined && a.weights.version > v) v = a.weights.version;
        seen[0] = a.position;
        seen[1] = a.color;
        seen[2] = a.normal;
        seen[3] = a.uv;
        seen[4] = a.uv1;
        seen[5] = a.tangent;
        seen[6] = a.joints;
        seen[7] = a.weights;
        this.#version = v;
        this.#version_stamp = last_geometry_stamp();
        return v;
    }

    /**
     * Moves only with the geometry's own `needsUpdate = true` (everything changed, the index included) and when an
     * attribute was swapped for another geometry's.
     */
    get whole_version(): number {
        // `version` notices a swapped attribute (and moves the geometry's own stamp for it)
        void this.version;
        return this.#own_version;
    }

    /**
     * Coarser levels of detail over this geometry's vertices (`GeometryDetailLevel`; `simplify_detail_levels`
     * makes them), drawn by meshes small on screen where the renderer culls on the GPU (every mesh pass: G-buffer,
     * shadows, motion, prepass). Empty (the default): always the full index. Checked when set (throws naming the
     * level); setting it uploads the levels before the next draw. A geometry rewritten later keeps them: replace
     * them with ones made from its new index (their indices are checked against its vertex count at upload).
     */
    get detail_levels(): readonly GeometryDetailLevel[] {
        return this.#detail_levels;
    }

    set detail_levels(levels: readonly GeometryDetailLevel[]) {
        check_detail_levels(levels);
        this.#detail_levels = levels;
        this.#detail_stamp = next_geometry_stamp();
    }

    /** Moves whenever `detail_levels` is set; 0 before. */
    get detail_stamp(): number {
        return this.#detail_stamp;
    }

    /** Vertices in the position attribute now. */
    get vertex_count(): number {
        return this.attributes.position.count;
    }
}

function per_vertex(name: string, array: Float32Array, item_size: number, vertices: number): GeometryAttribute {
    if (array.length !== vertices * item_size) {
        throw new RangeError(
            `Geometry: ${vertices} positions but ${array.length / item_size} ${name} values; ${name} is ${item_size} floats per vertex`,
        );
    }
    return new GeometryAttribute(array, item_size);
}

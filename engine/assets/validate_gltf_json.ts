import { describe, JsonChecker, type JsonObject } from "./JsonChecker.js";
import { SUPPORTED_GLTF_EXTENSIONS } from "./supported_gltf_extensions.js";

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const PATHS = ["translation", "rotation", "scale", "weights"] as const;
const PATH_TYPES: Readonly<Record<string, readonly string[]>> = { translation: ["VEC3"], rotation: ["VEC4"], scale: ["VEC3"], weights: ["SCALAR"] };
const TEXTURE_SLOTS = ["normalTexture", "occlusionTexture", "emissiveTexture"] as const;
const PBR_SLOTS = ["baseColorTexture", "metallicRoughnessTexture"] as const;

/** @internal What the checks learned that the loader needs next. */
export interface CheckedGLTF {
    readonly root: JsonObject;
    readonly buffers: readonly JsonObject[];
    readonly images: readonly JsonObject[];
    /** Declared byteLength per buffer. */
    readonly buffer_lengths: readonly number[];
    /** Buffers that need no data (EXT_meshopt_compression fallbacks). */
    readonly fallback_buffers: ReadonlySet<number>;
    readonly extensions_used: readonly string[];
}

/**
 * @internal
 * Checks a glTF file's JSON before anything reads it: types, every index against what it points into, every
 * accessor and buffer view inside its buffer, required extensions, and the node graph (a forest, no cycles).
 * Throws the first fault as an AssetError naming the file and the JSON path; an accessor out of bounds is named
 * where it is used (`meshes[0].primitives[1].indices`) when it is.
 */
export function validate_gltf_json(file: string, json: unknown): CheckedGLTF {
    const c: JsonChecker = new JsonChecker(file);
    const root = c.object(json, "");
    const asset = c.object(root.asset, "asset");
    if (typeof asset.version !== "string" || !/^2\.\d+$/.test(asset.version)) c.fail("asset.version", `must be "2.x", got ${describe(asset.version)}`);
    const used = c.strings(root, "extensionsUsed", "extensionsUsed");
    const required = c.strings(root, "extensionsRequired", "extensionsRequired");
    required.forEach((name, i) => {
        if (!SUPPORTED_GLTF_EXTENSIONS.includes(name)) {
            c.fail(`extensionsRequired[${i}]`, `requires extension '${name}', which this loader does not support (it reads ${SUPPORTED_GLTF_EXTENSIONS.join(", ")})`);
        }
    });
    const list = (key: string) => c.objects(root, key, key);
    const buffers = list("buffers");
    const views = list("bufferViews");
    const accessors = list("accessors");
    const images = list("images");
    const samplers = list("samplers");
    const textures = list("textures");
    const materials = list("materials");
    const meshes = list("meshes");
    const nodes = list("nodes");
    const skins = list("skins");
    const animations = list("animations");
    const scenes = list("scenes");
    const cameras = list("cameras");

    const buffer_lengths = buffers.map((b, i) => {
        if (b.uri !== undefined && typeof b.uri !== "string") c.fail(`buffers[${i}].uri`, `must be a string, got ${describe(b.uri)}`);
        return c.integer(b, "byteLength", `buffers[${i}].byteLength`, 1);
    });
    const fallback_buffers = new Set<number>();
    const view_lengths = views.map((v, i) => {
        const path = `bufferViews[${i}]`;
        const buffer = c.index(v, "buffer", `${path}.buffer`, buffers.length, "buffers", false);
        const offset = c.integer(v, "byteOffset", `${path}.byteOffset`, 0, 0);
        const length = c.integer(v, "byteLength", `${path}.byteLength`, 1);
        if (v.byteStride !== undefined) {
            const stride = c.integer(v, "byteStride", `${path}.byteStride`, 4);
            if (stride > 252 || stride % 4 !== 0) c.fail(`${path}.byteStride`, `must be a multiple of 4 from 4 to 252, got ${stride}`);
        }
        if (offset + length > buffer_lengths[buffer]) {
            c.fail(path, `holds bytes ${offset}..${offset + length} of buffers[${buffer}], which has ${buffer_lengths[buffer]}`);
        }
        const meshopt = c.optional_object(c.optional_object(v, "extensions", `${path}.extensions`) ?? {}, "EXT_meshopt_compression", `${path}.extensions.EXT_meshopt_compression`);
        if (meshopt !== undefined) {
            const mpath = `${path}.extensions.EXT_meshopt_compression`;
            const source = c.index(meshopt, "buffer", `${mpath}.buffer`, buffers.length, "buffers", false);
            const mo = c.integer(meshopt, "byteOffset", `${mpath}.byteOffset`, 0, 0);
            const ml = c.integer(meshopt, "byteLength", `${mpath}.byteLength`, 1);
            const count = c.integer(meshopt, "count", `${mpath}.count`, 1);
            const stride = c.integer(meshopt, "byteStride", `${mpath}.byteStride`, 1);
            if (mo + ml > buffer_lengths[source]) c.fail(mpath, `holds bytes ${mo}..${mo + ml} of buffers[${source}], which has ${buffer_lengths[source]}`);
            if (count * stride > length) c.fail(mpath, `decodes ${count} x ${stride} bytes into a view of ${length}`);
            const fallback = c.optional_object(c.optional_object(buffers[buffer], "extensions", `buffers[${buffer}].extensions`) ?? {}, "EXT_meshopt_compression", `buffers[${buffer}].extensions.EXT_meshopt_compression`);
            if (fallback !== undefined && buffers[buffer].uri === undefined) fallback_buffers.add(buffer);
        }
        return length;
    });

    // where each accessor is first used, to name the culprit by its use
    const used_at = new Map<number, string>();
    const use = (accessor: number, path: string): void => {
        if (!used_at.has(accessor)) used_at.set(accessor, path);
    };
    const accessor_info = accessors.map((a, i) => {
        const path = `accessors[${i}]`;
        const component = c.one_of(a, "componentType", `${path}.componentType`, [5120, 5121, 5122, 5123, 5125, 5126], -1 as number);
        if (component === -1) c.fail(`${path}.componentType`, "is missing");
        const type = c.one_of(a, "type", `${path}.type`, Object.keys(TYPE_COMPONENTS), "");
        if (type === "") c.fail(`${path}.type`, "is missing");
        const count = c.integer(a, "count", `${path}.count`, 1);
        c.index(a, "bufferView", `${path}.bufferView`, views.length, "bufferViews");
        c.integer(a, "byteOffset", `${path}.byteOffset`, 0, 0);
        return { component, type, count };
    });

    meshes.forEach((mesh, m) => {
        const prims = c.objects(mesh, "primitives", `meshes[${m}].primitives`);
        if (prims.length === 0) c.fail(`meshes[${m}].primitives`, "is empty; a mesh has at least one primitive");
        prims.forEach((prim, p) => {
            const path = `meshes[${m}].primitives[${p}]`;
            const attributes = c.object(prim.attributes, `${path}.attributes`);
            if (attributes.POSITION === undefined) c.fail(`${path}.attributes`, "has no POSITION");
            const vertices = accessor_info[c.index(attributes, "POSITION", `${path}.attributes.POSITION`, accessors.length, "accessors", false)].count;
            for (const name of Object.keys(attributes)) {
                const at = `${path}.attributes.${name}`;
                const accessor = c.index(attributes, name, at, accessors.length, "accessors", false);
                use(accessor, at);
                if (accessor_info[accessor].count !== vertices) c.fail(at, `has ${accessor_info[accessor].count} elements; POSITION has ${vertices}`);
            }
            const indices = c.index(prim, "indices", `${path}.indices`, accessors.length, "accessors");
            if (indices >= 0) {
                use(indices, `${path}.indices`);
                const info = accessor_info[indices];
                if (info.type !== "SCALAR" || ![5121, 5123, 5125].includes(info.component)) {
                    c.fail(`${path}.indices`, `must be SCALAR unsigned bytes, shorts or ints; accessors[${indices}] is ${info.type} of component type ${info.component}`);
                }
            }
            c.index(prim, "material", `${path}.material`, materials.length, "materials");
            c.one_of(prim, "mode", `${path}.mode`, [0, 1, 2, 3, 4, 5, 6], 4);
            c.objects(prim, "targets", `${path}.targets`).forEach((target, t) => {
                for (const name of Object.keys(target)) {
                    const at = `${path}.targets[${t}].${name}`;
                    const accessor = c.index(target, name, at, accessors.length, "accessors", false);
                    use(accessor, at);
                    if (accessor_info[accessor].count !== vertices) c.fail(at, `has ${accessor_info[accessor].count} elements; POSITION has ${vertices}`);
                }
            });
            const ext = c.optional_object(prim, "extensions", `${path}.extensions`);
            const draco = ext === undefined ? undefined : c.optional_object(ext, "KHR_draco_mesh_compression", `${path}.extensions.KHR_draco_mesh_compression`);
            if (draco !== undefined) {
                c.index(draco, "bufferView", `${path}.extensions.KHR_draco_mesh_compression.bufferView`, views.length, "bufferViews", false);
                c.object(draco.attributes, `${path}.extensions.KHR_draco_mesh_compression.attributes`);
            }
        });
    });

    skins.forEach((skin, s) => {
        const path = `skins[${s}]`;
        const joints = skin.joints;
        if (!Array.isArray(joints) || joints.length === 0) c.fail(`${path}.joints`, `must be a non-empty array of node indices, got ${describe(joints)}`);
        joints.forEach((j, k) => c.index_value(j, `${path}.joints[${k}]`, nodes.length, "nodes"));
        c.index(skin, "skeleton", `${path}.skeleton`, nodes.length, "nodes");
        const ibm = c.index(skin, "inverseBindMatrices", `${path}.inverseBindMatrices`, accessors.length, "accessors");
        if (ibm >= 0) {
            use(ibm, `${path}.inverseBindMatrices`);
            const info = accessor_info[ibm];
            if (info.type !== "MAT4" || info.component !== 5126 || info.count < joints.length) {
                c.fail(`${path}.inverseBindMatrices`, `must be at least ${joints.length} float MAT4s (one per joint); accessors[${ibm}] is ${info.count} ${info.type} of component type ${info.component}`);
            }
        }
    });

    animations.forEach((animation, a) => {
        const path = `animations[${a}]`;
        const anim_samplers = c.objects(animation, "samplers", `${path}.samplers`);
        anim_samplers.forEach((sampler, k) => {
            const at = `${path}.samplers[${k}]`;
            const input = c.index(sampler, "input", `${at}.input`, accessors.length, "accessors", false);
            const output = c.index(sampler, "output", `${at}.output`, accessors.length, "accessors", false);
            use(input, `${at}.input`);
            use(output, `${at}.output`);
            const interpolation = c.one_of(sampler, "interpolation", `${at}.interpolation`, ["LINEAR", "STEP", "CUBICSPLINE"], "LINEAR");
            const inp = accessor_info[input];
            if (inp.type !== "SCALAR" || inp.component !== 5126) c.fail(`${at}.input`, `must be SCALAR floats (times); accessors[${input}] is ${inp.type} of component type ${inp.component}`);
            const per_key = interpolation === "CUBICSPLINE" ? 3 : 1;
            const out = accessor_info[output].count;
            if (out % (inp.count * per_key) !== 0) {
                c.fail(`${at}.output`, `has ${out} values for ${inp.count} keyframes (${interpolation}: a multiple of ${inp.count * per_key})`);
            }
        });
        c.objects(animation, "channels", `${path}.channels`).forEach((channel, k) => {
            const at = `${path}.channels[${k}]`;
            const sampler = c.index(channel, "sampler", `${at}.sampler`, anim_samplers.length, `samplers in ${path}`, false);
            const target = c.object(channel.target, `${at}.target`);
            c.index(target, "node", `${at}.target.node`, nodes.length, "nodes");
            const target_path = c.one_of(target, "path", `${at}.target.path`, [...PATHS, "pointer"], "pointer");
            const output = anim_samplers[sampler].output as number;
            const info = accessor_info[output];
            if (target_path !== "pointer" && !PATH_TYPES[target_path].includes(info.type)) {
                c.fail(`${at}.target.path`, `is ${target_path}, but its sampler's output accessors[${output}] is ${info.type}`);
            }
            if (target_path !== "weights" && target_path !== "pointer") {
                const keys = accessor_info[anim_samplers[sampler].input as number].count;
                const per_key = anim_samplers[sampler].interpolation === "CUBICSPLINE" ? 3 : 1;
                if (info.count !== keys * per_key) c.fail(`${path}.samplers[${sampler}].output`, `has ${info.count} values for ${keys} keyframes of ${target_path}`);
            }
        });
    });

    accessors.forEach((a, i) => check_accessor_bounds(c, a, i, views, view_lengths, accessor_info[i], used_at.get(i) ?? `accessors[${i}]`));

    images.forEach((image, i) => {
        const path = `images[${i}]`;
        if (image.uri === undefined && image.bufferView === undefined) c.fail(path, "has neither a uri nor a bufferView");
        if (image.uri !== undefined && typeof image.uri !== "string") c.fail(`${path}.uri`, `must be a string, got ${describe(image.uri)}`);
        c.index(image, "bufferView", `${path}.bufferView`, views.length, "bufferViews");
    });
    samplers.forEach((s, i) => {
        c.one_of(s, "wrapS", `samplers[${i}].wrapS`, [33071, 33648, 10497], 10497);
        c.one_of(s, "wrapT", `samplers[${i}].wrapT`, [33071, 33648, 10497], 10497);
        c.one_of(s, "magFilter", `samplers[${i}].magFilter`, [9728, 9729], 9729);
        c.one_of(s, "minFilter", `samplers[${i}].minFilter`, [9728, 9729, 9984, 9985, 9986, 9987], 9987);
    });
    textures.forEach((t, i) => {
        c.index(t, "source", `textures[${i}].source`, images.length, "images");
        c.index(t, "sampler", `textures[${i}].sampler`, samplers.length, "samplers");
    });
    materials.forEach((material, m) => {
        const path = `materials[${m}]`;
        const texture_ref = (owner: JsonObject, slot: string, at: string): void => {
            const info = c.optional_object(owner, slot, at);
            if (info === undefined) return;
            const t = c.index(info, "index", `${at}.index`, textures.length, "textures", false);
            if (textures[t].source === undefined) c.fail(`${at}.index`, `names textures[${t}], which has no image`);
            c.integer(info, "texCoord", `${at}.texCoord`, 0, 0);
        };
        const pbr = c.optional_object(material, "pbrMetallicRoughness", `${path}.pbrMetallicRoughness`);
        if (pbr !== undefined) {
            for (const slot of PBR_SLOTS) texture_ref(pbr, slot, `${path}.pbrMetallicRoughness.${slot}`);
            c.numbers(pbr, "baseColorFactor", `${path}.pbrMetallicRoughness.baseColorFactor`, 4);
        }
        for (const slot of TEXTURE_SLOTS) texture_ref(material, slot, `${path}.${slot}`);
        c.numbers(material, "emissiveFactor", `${path}.emissiveFactor`, 3);
        c.one_of(material, "alphaMode", `${path}.alphaMode`, ["OPAQUE", "MASK", "BLEND"], "OPAQUE");
    });

    check_node_graph(c, nodes, meshes.length, skins.length, cameras.length);
    scenes.forEach((scene, s) => {
        const list_nodes = scene.nodes;
        if (list_nodes === undefined) return;
        if (!Array.isArray(list_nodes)) c.fail(`scenes[${s}].nodes`, `must be an array of node indices, got ${describe(list_nodes)}`);
        list_nodes.forEach((n, k) => c.index_value(n, `scenes[${s}].nodes[${k}]`, nodes.length, "nodes"));
    });
    c.index(root, "scene", "scene", scenes.length, "scenes");
    return { root, buffers, images, buffer_lengths, fallback_buffers, extensions_used: used };
}

function check_accessor_bounds(
    c: JsonChecker,
    a: JsonObject,
    i: number,
    views: readonly JsonObject[],
    view_lengths: readonly number[],
    info: { component: number; type: string; count: number },
    where: string,
): void {
    const component_bytes = COMPONENT_BYTES[info.component];
    const components = TYPE_COMPONENTS[info.type];
    // matrices of 1- and 2-byte components pad each column to 4 bytes
    const columns = info.type.startsWith("MAT") ? Math.sqrt(components) : 1;
    const column_bytes = info.type.startsWith("MAT") ? Math.ceil((columns * component_bytes) / 4) * 4 : components * component_bytes;
    const element = column_bytes * columns;
    const check = (view: number, offset: number, stride: number, count: number, bytes: number, what: string): void => {
        const end = offset + stride * (count - 1) + bytes;
        if (end > view_lengths[view]) {
            c.fail(where, `${what}accessors[${i}] reads bytes ${offset}..${end} of bufferViews[${view}], which holds ${view_lengths[view]}`);
        }
        const view_offset = typeof views[view].byteOffset === "number" ? (views[view].byteOffset as number) : 0;
        if ((offset + view_offset) % component_bytes !== 0) c.fail(where, `${what}accessors[${i}] starts at byte ${offset + view_offset}, not aligned to its ${component_bytes}-byte components`);
    };
    if (typeof a.bufferView === "number") {
        const stride = typeof views[a.bufferView].byteStride === "number" ? (views[a.bufferView].byteStride as number) : element;
        check(a.bufferView, (a.byteOffset as number | undefined) ?? 0, stride, info.count, element, "");
    }
    const sparse = c.optional_object(a, "sparse", `accessors[${i}].sparse`);
    if (sparse === undefined) return;
    const path = `accessors[${i}].sparse`;
    const count = c.integer(sparse, "count", `${path}.count`, 1);
    if (count > info.count) c.fail(`${path}.count`, `is ${count}, more than the accessor's ${info.count} elements`);
    const indices = c.object(sparse.indices, `${path}.indices`);
    const values = c.object(sparse.values, `${path}.values`);
    const iv = c.index(indices, "bufferView", `${path}.indices.bufferView`, views.length, "bufferViews", false);
    const vv = c.index(values, "bufferView", `${path}.values.bufferView`, views.length, "bufferViews", false);
    const index_type = c.one_of(indices, "componentType", `${path}.indices.componentType`, [5121, 5123, 5125], 0 as number);
    if (index_type === 0) c.fail(`${path}.indices.componentType`, "is missing");
    const io = c.integer(indices, "byteOffset", `${path}.indices.byteOffset`, 0, 0);
    const vo = c.integer(values, "byteOffset", `${path}.values.byteOffset`, 0, 0);
    check(iv, io, COMPONENT_BYTES[index_type], count, COMPONENT_BYTES[index_type], "the sparse indices of ");
    check(vv, vo, element, count, element, "the sparse values of ");
}

/** Nodes form a forest: every child index valid, no node with two parents, no cycle. */
function check_node_graph(c: JsonChecker, nodes: readonly JsonObject[], meshes: number, skins: number, cameras: number): void {
    const parent = new Int32Array(nodes.length).fill(-1);
    const children: number[][] = nodes.map((node, n) => {
        const path = `nodes[${n}]`;
        c.index(node, "mesh", `${path}.mesh`, meshes, "meshes");
        c.index(node, "skin", `${path}.skin`, skins, "skins");
        c.index(node, "camera", `${path}.camera`, cameras, "cameras");
        c.numbers(node, "matrix", `${path}.matrix`, 16);
        c.numbers(node, "translation", `${path}.translation`, 3);
        c.numbers(node, "rotation", `${path}.rotation`, 4);
        c.numbers(node, "scale", `${path}.scale`, 3);
        c.numbers(node, "weights", `${path}.weights`, 0);
        const list = node.children;
        if (list === undefined) return [];
        if (!Array.isArray(list)) c.fail(`${path}.children`, `must be an array of node indices, got ${describe(list)}`);
        return list.map((child, k) => c.index_value(child, `${path}.children[${k}]`, nodes.length, "nodes"));
    });
    // walk up from each node along parent links as they are set: a link that reaches back to the child is a cycle
    children.forEach((list, n) => {
        list.forEach((child, k) => {
            const at = `nodes[${n}].children[${k}]`;
            if (child === n) c.fail(at, `is node ${n} itself: the node graph has a cycle`);
            let up = n;
            const chain = [child];
            while (up !== -1) {
                chain.push(up);
                if (up === child) c.fail(at, `makes node ${child} its own ancestor: the node graph has a cycle (nodes ${chain.reverse().join(" -> ")})`);
                up = parent[up];
            }
            if (parent[child] !== -1) c.fail(at, `is node ${child}, which is already a child of nodes[${parent[child]}]; a node has one parent`);
            parent[child] = n;
        });
    });
}

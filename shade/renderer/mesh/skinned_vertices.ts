/**
 * A batch of skinned meshes of one geometry whose vertices the skinning step wrote into shared buffers
 * (each mesh at its own vertex base, `GPUGeometry.skin_base`). Mesh passes draw a run of one batch as one
 * instanced draw: its pipeline pulls positions, last frame's positions and normals from the batch's buffers
 * (`skinned_vertices_wgsl`) at the object's base, and the geometry's uvs and indices stay vertex and index buffers.
 */
export interface SkinBatch {
    /** The bind group of the batch's vertices this frame (`skinned_vertices_layout`); read after the skinning pass. */
    readonly vertices: GPUBindGroup;
}

/** The bind group index where a pulling mesh pipeline reads its skin batch's vertices (`skinned_vertices_wgsl`). */
export const SKINNED_VERTICES_GROUP = 2;

const layouts = new WeakMap<GPUDevice, GPUBindGroupLayout>();

/** The layout of a skin batch's vertices (positions, last frame's positions, normals), one per device. */
export function skinned_vertices_layout(device: GPUDevice): GPUBindGroupLayout {
    let layout = layouts.get(device);
    if (layout === undefined) {
        const entry = (binding: number): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.VERTEX, buffer: { type: "read-only-storage" } });
        layout = device.createBindGroupLayout({ label: "skinned vertices bind group layout", entries: [entry(0), entry(1), entry(2)] });
        layouts.set(device, layout);
    }
    return layout;
}

/**
 * WGSL of the skin batch's vertices at bind group `group`, with the functions a pulling vertex stage reads them by:
 * `skinned_position(base, vertex)`, `skinned_previous(base, vertex)`, `skinned_normal(base, vertex)`, and
 * `skin_base(normal_0)`: the object's vertex base, which the draw list keeps in its normal matrix's first column's w.
 */
export function skinned_vertices_wgsl(group: number): string {
    return /* wgsl */ `
@group(${group}) @binding(0) var<storage, read> skinned_positions: array<f32>;
@group(${group}) @binding(1) var<storage, read> skinned_previous_positions: array<f32>;
@group(${group}) @binding(2) var<storage, read> skinned_normals: array<f32>;

fn skin_base(normal_0: vec4f) -> u32 {
    return bitcast<u32>(normal_0.w);
}
fn skinned_position(base: u32, vertex: u32) -> vec3f {
    let i = 3u * (base + vertex);
    return vec3f(skinned_positions[i], skinned_positions[i + 1u], skinned_positions[i + 2u]);
}
fn skinned_previous(base: u32, vertex: u32) -> vec3f {
    let i = 3u * (base + vertex);
    return vec3f(skinned_previous_positions[i], skinned_previous_positions[i + 1u], skinned_previous_positions[i + 2u]);
}
fn skinned_normal(base: u32, vertex: u32) -> vec3f {
    let i = 3u * (base + vertex);
    return vec3f(skinned_normals[i], skinned_normals[i + 1u], skinned_normals[i + 2u]);
}
`;
}

const empty_groups = new WeakMap<GPUDevice, GPUBindGroup>();

/**
 * A bind group of `skinned_vertices_layout` over a small empty buffer, one per device: for passes whose rigid and
 * pulling pipelines share one layout, bound at `SKINNED_VERTICES_GROUP` until a skin batch's vertices are.
 */
export function empty_skinned_vertices(device: GPUDevice): GPUBindGroup {
    let group = empty_groups.get(device);
    if (group === undefined) {
        const buffer = device.createBuffer({ label: "no skinned vertices", size: 16, usage: GPUBufferUsage.STORAGE });
        group = device.createBindGroup({
            label: "no skinned vertices bind group",
            layout: skinned_vertices_layout(device),
            entries: [
                { binding: 0, resource: { buffer } },
                { binding: 1, resource: { buffer } },
                { binding: 2, resource: { buffer } },
            ],
        });
        empty_groups.set(device, group);
    }
    return group;
}

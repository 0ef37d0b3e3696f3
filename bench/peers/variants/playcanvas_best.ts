// Peers benchmark (issue 14), PlayCanvas "best": what PlayCanvas's performance and instancing docs recommend, on the
// WebGPU backend (PlayCanvas 2.23). The 1,000 boxes are one hardware-instanced mesh instance
// (meshInstance.setInstancing(vertexBuffer), the "Hardware Instancing" manual page): a static per-instance vertex
// buffer of the default instancing format's matrix columns plus a colour in the free ATTR13 slot, which
// material.setAttribute() and user shader chunks feed into the albedo (the engine's instancing-custom example's
// mechanism; StandardMaterial's diffuseVertexColor only reads the mesh's own vertex format). The ribbons are one
// merged procedural Mesh whose position block is written straight into its vertex buffer (VertexBuffer.lock()) and
// uploaded with a ranged unlock() once per frame, its bounding box and culling skipped. Static entities
// (render isStatic), no frustum culling (three draws, all on screen), no draw sorting, clustered lighting off (one
// directional light), the camera renders the world layer only. render() is app.update + app.render as in the taught
// variant (frameEnd submits).
import * as pc from 'playcanvas';
import { BOX_COUNT, GROUND_SIZE, RIBBON_COUNT, RIBBON_HALF_WIDTH, RIBBON_POINTS, RIBBON_SEGMENTS, ribbon_centres, type PeerVariant, type Workload } from '../workload';
import { lit_material, playcanvas_stage, ribbon_colors, ribbon_indices, ribbon_material, widen } from './playcanvas_taught';

// WGSL user chunks: pass the per-instance colour to the fragment stage and multiply the albedo by it.
const DECLARATION_VS = /* wgsl */ `
attribute aInstColor: vec3f;
varying vInstColor: vec3f;
`;
const MAIN_END_VS = /* wgsl */ `
    output.vInstColor = aInstColor;
`;
const DECLARATION_PS = /* wgsl */ `
varying vInstColor: vec3f;
`;
// the engine's diffusePS (no texture, no vertex colour) with the instance colour multiplied in
const DIFFUSE_PS = /* wgsl */ `
uniform material_diffuse: vec3f;
fn getAlbedo() {
    dAlbedo = uniform.material_diffuse.rgb * vInstColor;
}
`;
const INSTANCE_FLOATS = 19; // matrix columns (16), colour (3)

export default async function create(canvas: HTMLCanvasElement, workload: Workload): Promise<PeerVariant> {
    const { app, gpu, camera } = await playcanvas_stage(canvas);
    const device = app.graphicsDevice;
    const scene = app.scene;
    scene.clusteredLightingEnabled = false;
    const world = scene.layers.getLayerById(pc.LAYERID_WORLD);
    if (world === null) throw new Error('playcanvas_best: no world layer');
    world.opaqueSortMode = pc.SORTMODE_NONE;
    world.transparentSortMode = pc.SORTMODE_NONE;
    const camera_component = camera.camera;
    if (camera_component === undefined) throw new Error('playcanvas_best: no camera component');
    camera_component.frustumCulling = false;
    camera_component.layers = [pc.LAYERID_WORLD];
    for (const entity of app.root.children) {
        if (entity instanceof pc.Entity && entity.render) entity.render.isStatic = true;
    }

    // boxes: one unit box, instanced; instance colours are raw's values (vertex data is not linearized)
    const boxes = workload.boxes;
    const box_material = lit_material(1, 1, 1);
    box_material.setAttribute('aInstColor', pc.SEMANTIC_ATTR13);
    box_material.shaderChunksVersion = '2.8';
    const chunks = box_material.getShaderChunks(pc.SHADERLANGUAGE_WGSL);
    chunks.set('litUserDeclarationVS', DECLARATION_VS);
    chunks.set('litUserMainEndVS', MAIN_END_VS);
    chunks.set('litUserDeclarationPS', DECLARATION_PS);
    chunks.set('diffusePS', DIFFUSE_PS);
    box_material.update();
    const instance_format = new pc.VertexFormat(device, [
        { semantic: pc.SEMANTIC_ATTR11, components: 4, type: pc.TYPE_FLOAT32 }, // matrix column 0
        { semantic: pc.SEMANTIC_ATTR12, components: 4, type: pc.TYPE_FLOAT32 }, // matrix column 1
        { semantic: pc.SEMANTIC_ATTR14, components: 4, type: pc.TYPE_FLOAT32 }, // matrix column 2
        { semantic: pc.SEMANTIC_ATTR15, components: 4, type: pc.TYPE_FLOAT32 }, // matrix column 3 (translation)
        { semantic: pc.SEMANTIC_ATTR13, components: 3, type: pc.TYPE_FLOAT32 }, // colour
    ]);
    const instances = new Float32Array(BOX_COUNT * INSTANCE_FLOATS);
    for (let i = 0; i < BOX_COUNT; i++) {
        const b = i * 9;
        const o = i * INSTANCE_FLOATS;
        // scale then translate, column-major
        instances[o] = boxes[b + 3];
        instances[o + 5] = boxes[b + 4];
        instances[o + 10] = boxes[b + 5];
        instances[o + 12] = boxes[b];
        instances[o + 13] = boxes[b + 1];
        instances[o + 14] = boxes[b + 2];
        instances[o + 15] = 1;
        instances[o + 16] = boxes[b + 6];
        instances[o + 17] = boxes[b + 7];
        instances[o + 18] = boxes[b + 8];
    }
    const instance_buffer = new pc.VertexBuffer(device, instance_format, BOX_COUNT, { usage: pc.BUFFER_STATIC, data: instances });
    const box_entity = new pc.Entity('boxes');
    box_entity.addComponent('render', { type: 'box', material: box_material, castShadows: false, receiveShadows: false, isStatic: true });
    app.root.addChild(box_entity);
    const box_instance = box_entity.render?.meshInstances[0];
    if (box_instance === undefined) throw new Error('playcanvas_best: no box mesh instance');
    box_instance.setInstancing(instance_buffer); // instanced mesh instances are not culled (cull = false)

    // ribbons: one merged mesh; colours and indices written once, the position block rewritten per frame
    const vertex_count = RIBBON_COUNT * RIBBON_POINTS * 2;
    const positions = new Float32Array(vertex_count * 3);
    const colors = new Float32Array(vertex_count * 4);
    const indices = new Uint32Array(RIBBON_COUNT * RIBBON_SEGMENTS * 6);
    const centres = new Float32Array(RIBBON_COUNT * RIBBON_POINTS * 3);
    ribbon_centres(workload.ribbons, 0, centres);
    widen(centres, 0, RIBBON_COUNT * RIBBON_POINTS, positions, 0);
    for (let i = 0; i < RIBBON_COUNT; i++) {
        ribbon_colors(workload.ribbons, i, colors, i * RIBBON_POINTS * 8);
        ribbon_indices(indices, i * RIBBON_SEGMENTS * 6, i * RIBBON_POINTS * 2);
    }
    const mesh = new pc.Mesh(device);
    mesh.clear(true, false);
    mesh.setPositions(positions);
    mesh.setColors(colors);
    mesh.setIndices(indices);
    mesh.update(pc.PRIMITIVE_TRIANGLES);
    // a fixed box around everything the ribbons can reach, so update never recomputes it
    mesh.aabb = new pc.BoundingBox(new pc.Vec3(0, 1.5, 0), new pc.Vec3(GROUND_SIZE / 2 + 5, 2, GROUND_SIZE / 2 + 5));
    const vertex_buffer = mesh.vertexBuffer;
    // Mesh builds its vertex format with a vertex count, i.e. non-interleaved: each stream is one block
    const position_element = vertex_buffer.format.elements.find((e) => e.name === pc.SEMANTIC_POSITION);
    if (position_element === undefined || position_element.stride !== 12) throw new Error('playcanvas_best: unexpected ribbon vertex layout');
    const position_offset = position_element.offset;
    const position_bytes = vertex_count * 12;
    // lock() hands out the buffer's CPU storage (kept between frames); unlock() uploads from it
    const storage = vertex_buffer.lock();
    const gpu_positions = ArrayBuffer.isView(storage)
        ? new Float32Array(storage.buffer, storage.byteOffset + position_offset, vertex_count * 3)
        : new Float32Array(storage, position_offset, vertex_count * 3);
    const ribbon_instance = new pc.MeshInstance(mesh, ribbon_material());
    ribbon_instance.cull = false;
    const ribbon_entity = new pc.Entity('ribbons');
    ribbon_entity.addComponent('render', { meshInstances: [ribbon_instance], castShadows: false, receiveShadows: false });
    app.root.addChild(ribbon_entity);

    const half = RIBBON_HALF_WIDTH;
    const point_count = RIBBON_COUNT * RIBBON_POINTS;
    return {
        device: gpu,
        update(t: number): void {
            ribbon_centres(workload.ribbons, t, centres);
            const v = gpu_positions;
            for (let i = 0; i < point_count; i++) {
                const c = i * 3;
                const o = i * 6;
                const x = centres[c];
                const y = centres[c + 1];
                const z = centres[c + 2];
                v[o] = x - half;
                v[o + 1] = y;
                v[o + 2] = z;
                v[o + 3] = x + half;
                v[o + 4] = y;
                v[o + 5] = z;
            }
            // uploads the position block only (one queue.writeBuffer)
            vertex_buffer.unlock(position_offset, position_bytes);
        },
        render(): void {
            app.update(1 / 60);
            app.render();
        },
    };
}

import type { FrameExecution } from "../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension, type RenderExtensionOwner } from "../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../shade/renderer/extension/ViewTextures.js";

/** What a pick finds under a pixel. */
export interface PickResult {
    /** The entity whose `MeshRenderer` covers the pixel, or null (the sky, the terrain, a mesh no entity owns). */
    readonly entity: number | null;
    /** The G-buffer object id under the pixel (0: none). */
    readonly object_id: number;
    /** The world position of the surface under the pixel, or null on the sky. */
    readonly position: Float32Array | null;
}

/** What the extension asks of its system. */
export interface ScenePickSource extends RenderExtensionOwner {
    /** The entity of a G-buffer object id, or null. */
    entity_of_object(object_id: number): number | null;
    /** The output's size in CSS pixels (a canvas's client size; an offscreen target's pixels). */
    css_size(output_width: number, output_height: number, into: Float64Array): void;
}

interface Pick {
    readonly x: number;
    readonly y: number;
    readonly resolve: (result: PickResult) => void;
    readonly reject: (error: Error) => void;
    /** This frame's inverse view-projection (jittered, as depth was drawn) and the pixel's NDC x, y. */
    readonly unproject: Float32Array;
}

interface PassData {
    ids: FrameGraphHandle;
    depth: FrameGraphHandle;
    pick: Pick | null;
    x: number;
    y: number;
}

const PICK_BYTES = 16;

// depth/stencil texels cannot be copied one at a time (a copy must cover the whole subresource): a one-thread
// compute pass loads both texels into a small storage buffer, which is then copied to the mappable one
const PICK_WGSL = /* wgsl */ `
@group(0) @binding(0) var ids: texture_2d<u32>;
@group(0) @binding(1) var depth: texture_depth_2d;
@group(0) @binding(2) var<uniform> pixel: vec4u;
@group(0) @binding(3) var<storage, read_write> result: array<u32, 4>;

@compute @workgroup_size(1)
fn pick() {
    let p = vec2i(pixel.xy);
    result[0] = textureLoad(ids, p, 0).x;
    result[1] = bitcast<u32>(textureLoad(depth, p, 0));
}
`;

interface DeviceState {
    readonly device: GPUDevice;
    readonly pipeline: GPUComputePipeline;
    readonly pixel: GPUBuffer;
    readonly result: GPUBuffer;
    readonly read: GPUBuffer;
}
const NO_HIT: PickResult = Object.freeze({ entity: null, object_id: 0, position: null });

/**
 * Picking for `SceneSystem`: `pick(x, y)` in output CSS pixels queues a read of the object id and the depth
 * under that point; the next frame maps it to the internal resolution, copies both texels to a mappable buffer
 * in a side-effect pass ("scene / pick", at AfterLighting, after every G-buffer writer) and the promise resolves
 * once the GPU is done, with the entity (an O(1) look-up of the id) and the world position rebuilt from the
 * depth with that frame's camera. One pick is read per frame; without one nothing is recorded or allocated.
 */
export class ScenePickExtension extends RenderExtension {
    name = "scene pick";
    phase = FramePhase.AfterLighting;

    readonly #source: ScenePickSource;
    readonly #picks: Pick[] = [];
    #in_flight: Pick | null = null;
    #state: DeviceState | null = null;
    readonly #pixel = new Uint32Array(4);
    #destroyed = false;
    readonly #data: PassData = { ids: -1, depth: -1, pick: null, x: 0, y: 0 };
    readonly #execute = (data: PassData, resources: FrameGraphResources, execution: FrameExecution): void => this.#encode(data, resources, execution);
    readonly #css = new Float64Array(2);
    /** Pick passes recorded since construction (for tests). */
    pick_passes = 0;

    constructor(source: ScenePickSource) {
        super(source);
        this.#source = source;
    }

    /** Picks queued or being read. */
    get pending_picks(): number {
        return this.#picks.length + (this.#in_flight === null ? 0 : 1);
    }

    /** See `SceneSystem.pick`. */
    pick(x: number, y: number): Promise<PickResult> {
        if (this.#destroyed) return Promise.reject(new Error("ScenePickExtension.pick: the extension was destroyed; start the SceneSystem up again"));
        if (!(Number.isFinite(x) && Number.isFinite(y))) {
            return Promise.reject(new RangeError(`SceneSystem.pick: (x, y) must be finite CSS pixel coordinates, got (${x}, ${y})`));
        }
        return new Promise((resolve, reject) => this.#picks.push({ x, y, resolve, reject, unproject: new Float32Array(18) }));
    }

    override record(frame: FrameContext): void {
        if (this.#destroyed) throw new Error("ScenePickExtension used after destroy(); start the SceneSystem up again");
        // a pick recorded into a frame that never ran (it failed before executing) is asked again
        if (this.#data.pick !== null) {
            this.#picks.unshift(this.#data.pick);
            this.#data.pick = null;
        }
        if (this.#in_flight !== null || this.#picks.length === 0) return;
        const pick = this.#picks.shift()!;
        const internal = frame.internal_resolution;
        const output = frame.output_resolution;
        const css = this.#css;
        this.#source.css_size(output[0], output[1], css);
        if (!(pick.x >= 0 && pick.y >= 0 && pick.x < css[0] && pick.y < css[1])) {
            pick.resolve(NO_HIT);
            return;
        }
        // the CSS point to the internal-resolution pixel that covers it
        const x = Math.min(internal[0] - 1, Math.floor((pick.x / css[0]) * internal[0]));
        const y = Math.min(internal[1] - 1, Math.floor((pick.y / css[1]) * internal[1]));
        pick.unproject.set(frame.view.camera.inverse_view_projection, 0);
        pick.unproject[16] = ((x + 0.5) / internal[0]) * 2 - 1;
        pick.unproject[17] = 1 - ((y + 0.5) / internal[1]) * 2;
        const data = this.#data;
        data.pick = pick;
        data.x = x;
        data.y = y;
        const builder = frame.graph.add("scene / pick", data, this.#execute);
        data.ids = builder.read(frame.get(GBufferTextures).object_id);
        data.depth = builder.read(frame.get(ViewTextures).depth);
        builder.make_side_effect();
        this.pick_passes++;
    }

    override destroy(): void {
        if (this.#destroyed) return;
        this.#destroyed = true;
        // an in-flight read keeps its buffer until it resolves
        if (this.#in_flight === null) this.#state?.read.destroy();
        this.#state?.pixel.destroy();
        this.#state?.result.destroy();
        this.#state = null;
        for (const pick of this.#picks) pick.resolve(NO_HIT);
        this.#picks.length = 0;
    }

    #encode(data: PassData, resources: FrameGraphResources, execution: FrameExecution): void {
        const pick = data.pick;
        data.pick = null;
        if (pick === null) return;
        const state = this.#device_state(execution.graphics);
        const buffer = state.read;
        this.#in_flight = pick;
        this.#pixel[0] = data.x;
        this.#pixel[1] = data.y;
        state.device.queue.writeBuffer(state.pixel, 0, this.#pixel);
        // a pick is rare: its bind group is made for the textures of that frame
        const group = state.device.createBindGroup({
            label: "scene pick bind group",
            layout: state.pipeline.getBindGroupLayout(0),
            entries: [
                { binding: 0, resource: resources.view(data.ids) },
                { binding: 1, resource: resources.view(data.depth) },
                { binding: 2, resource: { buffer: state.pixel } },
                { binding: 3, resource: { buffer: state.result } },
            ],
        });
        const pass = execution.encoder.beginComputePass({ label: "scene / pick", timestampWrites: execution.timestamp_writes });
        pass.setPipeline(state.pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(1);
        pass.end();
        execution.encoder.copyBufferToBuffer(state.result, 0, buffer, 0, PICK_BYTES);
        // mapped once the frame's command buffer is submitted (after this synchronous render call)
        void Promise.resolve().then(() => this.#read(buffer, pick));
    }

    async #read(buffer: GPUBuffer, pick: Pick): Promise<void> {
        try {
            await buffer.mapAsync(GPUMapMode.READ, 0, PICK_BYTES);
            const mapped = buffer.getMappedRange(0, PICK_BYTES);
            const id = new Uint32Array(mapped, 0, 1)[0];
            const depth = new Float32Array(mapped, 4, 1)[0];
            buffer.unmap();
            pick.resolve({ entity: id === 0 ? null : this.#source.entity_of_object(id), object_id: id, position: depth >= 1 ? null : unproject(pick.unproject, depth) });
        } catch (error) {
            pick.reject(new Error(`SceneSystem.pick(${pick.x}, ${pick.y}): the read-back failed: ${(error as Error).message}`, { cause: error }));
        } finally {
            this.#in_flight = null;
            if (this.#destroyed) buffer.destroy();
        }
    }

    #device_state(device: GPUDevice): DeviceState {
        const current = this.#state;
        if (current !== null && current.device === device) return current;
        const module = device.createShaderModule({ label: "scene pick", code: PICK_WGSL });
        const state: DeviceState = {
            device,
            pipeline: device.createComputePipeline({ label: "scene pick", layout: "auto", compute: { module, entryPoint: "pick" } }),
            pixel: device.createBuffer({ label: "scene pick pixel", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
            result: device.createBuffer({ label: "scene pick result", size: PICK_BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC }),
            read: device.createBuffer({ label: "scene pick read-back", size: PICK_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
        };
        this.#state = state;
        return state;
    }
}

function unproject(u: Float32Array, depth: number): Float32Array {
    const x = u[16];
    const y = u[17];
    const w = u[3] * x + u[7] * y + u[11] * depth + u[15];
    const p = new Float32Array(3);
    p[0] = (u[0] * x + u[4] * y + u[8] * depth + u[12]) / w;
    p[1] = (u[1] * x + u[5] * y + u[9] * depth + u[13]) / w;
    p[2] = (u[2] * x + u[6] * y + u[10] * depth + u[14]) / w;
    return p;
}

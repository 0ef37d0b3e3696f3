import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { GBufferTextures } from "../extension/GBufferTextures.js";
import { ViewTextures } from "../extension/ViewTextures.js";

/** Formats of the G-buffer targets and depth. Two are integer formats: nothing may blend into them. */
export const GBUFFER_FORMATS = {
    albedo: "rgba8unorm",
    normal: "rgba16float",
    material: "rgba8uint",
    object_id: "r32uint",
    depth: "depth32float",
} as const satisfies Record<string, GPUTextureFormat>;

const TARGET_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/**
 * The G-buffer step: writes the four targets and depth at the internal resolution and publishes them as
 * `GBufferTextures` and `ViewTextures`. Here it clears them to the empty scene (sky albedo, up normals,
 * far depth); scene meshes are drawn into the same pass.
 */
export class GBufferStep {
    /** Albedo of pixels no mesh covers. */
    readonly sky = { r: 0.05, g: 0.07, b: 0.1, a: 0 };

    #albedo = -1;
    #normal = -1;
    #material = -1;
    #object_id = -1;
    #depth = -1;
    readonly #colors: GPURenderPassColorAttachment[] = [];
    readonly #descriptor: GPURenderPassDescriptor = { label: "gbuffer", colorAttachments: this.#colors };
    static readonly #up_normal: GPUColorDict = { r: 0, g: 1, b: 0, a: 1 };

    record(frame: FrameContext): void {
        const w = frame.resolution[0];
        const h = frame.resolution[1];
        const graph = frame.graph;
        const pass = graph.add("gbuffer", this, execute_gbuffer);
        this.#albedo = pass.write(pass.create("gbuffer albedo", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.albedo, TARGET_USAGE)));
        this.#normal = pass.write(pass.create("gbuffer normal", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.normal, TARGET_USAGE)));
        this.#material = pass.write(pass.create("gbuffer material", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.material, TARGET_USAGE)));
        this.#object_id = pass.write(pass.create("gbuffer object id", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.object_id, TARGET_USAGE)));
        this.#depth = pass.write(pass.create("depth", TextureResourceDescriptor.of(w, h, GBUFFER_FORMATS.depth, TARGET_USAGE)));

        const g = frame.create(GBufferTextures);
        g.albedo = this.#albedo;
        g.normal = this.#normal;
        g.material = this.#material;
        g.object_id = this.#object_id;
        frame.create(ViewTextures).depth = this.#depth;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const colors = this.#colors;
        colors[0] = resources.color_attachment(this.#albedo, this.sky);
        colors[1] = resources.color_attachment(this.#normal, GBufferStep.#up_normal);
        colors[2] = resources.color_attachment(this.#material);
        colors[3] = resources.color_attachment(this.#object_id);
        this.#descriptor.depthStencilAttachment = resources.depth_attachment(this.#depth, 1);
        const pass = execution.encoder.beginRenderPass(this.#descriptor);
        pass.end();
    }
}

function execute_gbuffer(step: GBufferStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import { TextureResourceDescriptor } from "../../device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../extension/FrameContext.js";
import { SceneColor } from "../extension/SceneColor.js";
import { SceneColorCopy } from "./SceneColorCopy.js";

const COPY_USAGE = 0x04 /* TEXTURE_BINDING */ | 0x02 /* COPY_DST */ | 0x01 /* COPY_SRC */;

/** Makes `SceneColorCopy`: one texture copy of the scene colour, pass "scene colour copy". */
export class SceneColorCopyStep {
    #source: FrameGraphHandle = -1;
    #copy: FrameGraphHandle = -1;
    readonly #size = { width: 0, height: 0 };
    readonly #from: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture };
    readonly #to: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture };

    record(frame: FrameContext): void {
        const graph = frame.graph;
        const source = frame.get(SceneColor).color;
        const d = graph.describe(source);
        const pass = graph.add("scene colour copy", this, execute_copy);
        this.#source = pass.read(source);
        this.#copy = pass.write(pass.create("scene colour copy", TextureResourceDescriptor.of(d.width, d.height, d.format, COPY_USAGE)));
        frame.create(SceneColorCopy).provide(this.#copy);
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const d = resources.descriptor(this.#source);
        this.#from.texture = resources.texture(this.#source);
        this.#to.texture = resources.texture(this.#copy);
        this.#size.width = d.width;
        this.#size.height = d.height;
        execution.encoder.copyTextureToTexture(this.#from, this.#to, this.#size);
    }
}

function execute_copy(step: SceneColorCopyStep, resources: FrameGraphResources, execution: FrameExecution): void {
    step.execute(resources, execution);
}

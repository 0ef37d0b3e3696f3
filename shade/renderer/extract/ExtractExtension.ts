import type { FrameExecution } from "../../device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../device/graph/FrameGraphResources.js";
import type { FrameContext } from "../extension/FrameContext.js";
import type { FramePhase } from "../extension/FramePhase.js";
import { RenderExtension } from "../extension/RenderExtension.js";

/**
 * Copies a frame texture - whatever `select(frame)` returns at `phase` - into a texture the extension owns,
 * for read-back, screenshots, picking or tests. Writing the owned (imported) copy makes the pass a side effect,
 * so it survives culling; the source is only read, so its producer's store is kept. The copy is remade when
 * the source's size or format changes, or on a new device. The source needs COPY_SRC usage. There is no
 * `enabled` flag: returning from `record` is the only off switch, so to skip frames subclass it and return
 * before `super.record(frame)`, or remove it.
 */
export class ExtractExtension extends RenderExtension {
    name: string;
    phase: FramePhase;
    /** The copy as of the last frame this extension recorded; null before the first. */
    texture: GPUTexture | null = null;

    readonly #select: (frame: FrameContext) => FrameGraphHandle;
    #source = -1;
    #target = -1;
    #device: GPUDevice | null = null;
    readonly #copy_source: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture };
    readonly #copy_target: GPUTexelCopyTextureInfo = { texture: null as unknown as GPUTexture };
    readonly #size = { width: 1, height: 1 };
    // the pass and texture names, made again only when `name` changes (a template string per frame allocates)
    #named = "";
    #pass_name = "";
    #copy_name = "";

    constructor(name: string, phase: FramePhase, select: (frame: FrameContext) => FrameGraphHandle) {
        super();
        this.name = name;
        this.phase = phase;
        this.#select = select;
    }

    record(frame: FrameContext): void {
        const source = this.#select(frame);
        const d = frame.describe(source);
        if (this.#named !== this.name) {
            this.#named = this.name;
            this.#pass_name = `${this.name} / copy`;
            this.#copy_name = `${this.name} copy`;
        }
        const pass = frame.graph.add(this.#pass_name, this, execute_extract);
        this.#source = pass.read(source);
        this.#size.width = d.width;
        this.#size.height = d.height;
        const texture = this.#owned(frame, d.width, d.height, d.format);
        this.#target = pass.write(frame.graph.import_texture(this.#copy_name, texture), "clear");
    }

    #owned(frame: FrameContext, width: number, height: number, format: GPUTextureFormat): GPUTexture {
        const device = frame.device;
        const t = this.texture;
        if (t !== null && t.width === width && t.height === height && t.format === format && this.#device === device) return t;
        t?.destroy();
        this.#device = device;
        this.texture = device.createTexture({
            label: `${this.name} copy`,
            size: { width, height },
            format,
            usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT,
        });
        return this.texture;
    }

    /** @internal */
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        this.#copy_source.texture = resources.texture(this.#source);
        this.#copy_target.texture = resources.texture(this.#target);
        execution.encoder.copyTextureToTexture(this.#copy_source, this.#copy_target, this.#size);
    }

    override destroy(): void {
        this.texture?.destroy();
        this.texture = null;
    }
}

function execute_extract(extension: ExtractExtension, resources: FrameGraphResources, execution: FrameExecution): void {
    extension.execute(resources, execution);
}

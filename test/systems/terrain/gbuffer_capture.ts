// Test helper: a render extension at AfterLighting that copies the finished G-buffer targets and depth into
// textures of its own, so a test can read back what the AfterGBuffer extensions left (the renderer's own
// targets are transient and pooled).
import type { FrameExecution } from "../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphResources } from "../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { RenderExtension } from "../../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../../shade/renderer/extension/ViewTextures.js";
import { read_texture, type TextureReadback } from "../../harness/index.js";

const NAMES = ["albedo", "normal", "material", "object_id", "depth"] as const;
type Target = (typeof NAMES)[number];

export class GBufferCapture extends RenderExtension {
    name = "zz gbuffer capture";
    phase = FramePhase.AfterLighting;
    readonly handles: Record<Target, number> = { albedo: -1, normal: -1, material: -1, object_id: -1, depth: -1 };
    copies: Partial<Record<Target, GPUTexture>> = {};
    device: GPUDevice | null = null;

    override record(frame: FrameContext): void {
        const g = frame.get(GBufferTextures);
        const pass = frame.graph.add("capture / copy", this, (_d: unknown, resources: FrameGraphResources, execution: FrameExecution) => this.#copy(resources, execution));
        this.handles.albedo = pass.read(g.albedo);
        this.handles.normal = pass.read(g.normal);
        this.handles.material = pass.read(g.material);
        this.handles.object_id = pass.read(g.object_id);
        this.handles.depth = pass.read(frame.get(ViewTextures).depth);
        pass.make_side_effect();
    }

    #copy(resources: FrameGraphResources, execution: FrameExecution): void {
        const device = execution.graphics;
        this.device = device;
        for (const name of NAMES) {
            const source = resources.texture(this.handles[name]);
            let copy = this.copies[name];
            if (copy === undefined || copy.width !== source.width || copy.format !== source.format) {
                copy?.destroy();
                copy = device.createTexture({
                    label: `capture ${name}`,
                    size: [source.width, source.height],
                    format: source.format,
                    usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.RENDER_ATTACHMENT,
                });
                this.copies[name] = copy;
            }
            execution.encoder.copyTextureToTexture({ texture: source }, { texture: copy }, [source.width, source.height]);
        }
    }

    async read(name: Exclude<Target, "depth">): Promise<TextureReadback> {
        return read_texture(this.device!, this.copies[name]!);
    }

    /** The depth target as floats, row by row. */
    async read_depth(): Promise<{ width: number; height: number; data: Float32Array }> {
        const device = this.device!;
        const texture = this.copies.depth!;
        const width = texture.width;
        const height = texture.height;
        const row = Math.ceil((width * 4) / 256) * 256;
        const buffer = device.createBuffer({ label: "capture depth read-back", size: row * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
        const encoder = device.createCommandEncoder({ label: "capture depth read-back" });
        encoder.copyTextureToBuffer({ texture, aspect: "depth-only" }, { buffer, bytesPerRow: row }, [width, height]);
        device.queue.submit([encoder.finish()]);
        await buffer.mapAsync(GPUMapMode.READ);
        const mapped = new Float32Array(buffer.getMappedRange());
        const data = new Float32Array(width * height);
        for (let y = 0; y < height; y++) data.set(mapped.subarray((y * row) / 4, (y * row) / 4 + width), y * width);
        buffer.unmap();
        buffer.destroy();
        return { width, height, data };
    }

    override destroy(): void {
        for (const name of NAMES) this.copies[name]?.destroy();
        this.copies = {};
    }
}

// GPU memory accounting: GraphicsEngine.gpu_memory() counts the bytes of every buffer and texture made through
// the device it created, the frame graph's transients apart (Dawn on SwiftShader).
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { GraphicsEngine } from "../../engine/GraphicsEngine.js";
import { GPUMemoryTracker } from "../../shade/device/GPUMemoryTracker.js";
import { texture_byte_size } from "../../shade/device/texture_byte_size.js";
import type { FrameContext } from "../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../shade/renderer/extension/RenderExtension.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { get_gpu } from "../harness/index.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const engines: GraphicsEngine[] = [];
afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
});

async function started(width = 32, height = 32) {
    const errors: Error[] = [];
    const target = new TextureRenderTarget(width, height);
    const engine = new GraphicsEngine({ gpu: get_gpu(), target, on_error: (e) => errors.push(e) });
    engine.feature_taa_enabled = false;
    engines.push(engine);
    await engine.start();
    return { engine, target, errors };
}

/** Makes one uniform buffer per device the first time it records (as extensions do). */
class BufferOwner extends RenderExtension {
    name = "buffer owner";
    phase = FramePhase.AfterTransparency;
    readonly #buffers = new WeakMap<GPUDevice, GPUBuffer>();
    record(frame: FrameContext): void {
        if (!this.#buffers.has(frame.device)) {
            this.#buffers.set(frame.device, frame.device.createBuffer({ label: "buffer owner uniforms", size: 768, usage: GPUBufferUsage.UNIFORM }));
        }
    }
}

describe("texture_byte_size (device-independent)", () => {
    it("counts texel blocks, levels, layers and samples", () => {
        expect(texture_byte_size("rgba8unorm", 16, 8)).toBe(512);
        expect(texture_byte_size("rgba16float", 10, 10)).toBe(800);
        expect(texture_byte_size("r8unorm", 4, 4, 1, 3)).toBe(16 + 4 + 1);
        expect(texture_byte_size("rgba32float", 2, 2, 6)).toBe(6 * 64);
        expect(texture_byte_size("depth24plus", 8, 8, 1, 1, 4)).toBe(1024);
        expect(texture_byte_size("bc1-rgba-unorm", 8, 8)).toBe(32);
        expect(texture_byte_size("astc-8x8-unorm", 16, 9)).toBe(16 * 2 * 2);
        expect(texture_byte_size("r32float", 8, 8, 8, 2, 1, "3d")).toBe(8 * 8 * 8 * 4 + 4 * 4 * 4 * 4);
    });
});

describe("GraphicsEngine.gpu_memory", () => {
    it("is all zeros before start", () => {
        const engine = new GraphicsEngine({ gpu: get_gpu(), target: new TextureRenderTarget(8, 8) });
        expect(engine.gpu_memory()).toEqual({ transients: 0, buffers: 0, textures: 0, total: 0 });
    });

    it("creating and destroying a buffer or a texture changes the count by its size, once", async () => {
        const { engine, errors } = await started();
        const device = engine.device!;
        const before = engine.gpu_memory();
        const buffer = device.createBuffer({ label: "test buffer", size: 4096, usage: GPUBufferUsage.VERTEX });
        expect(engine.gpu_memory().buffers - before.buffers).toBe(4096);
        expect(engine.gpu_memory().total - before.total).toBe(4096);
        const texture = device.createTexture({ label: "test texture", size: [16, 8], format: "rgba16float", usage: GPUTextureUsage.TEXTURE_BINDING, mipLevelCount: 2 });
        expect(engine.gpu_memory().textures - before.textures).toBe(16 * 8 * 8 + 8 * 4 * 8);
        buffer.destroy();
        buffer.destroy(); // a second destroy frees nothing more
        texture.destroy();
        expect(engine.gpu_memory()).toEqual(before);
        expect(errors).toEqual([]);
    });

    it("counts the frame graph pool's transients apart from other textures, and follows a resize", async () => {
        const { engine, target, errors } = await started(32, 32);
        const device = engine.device!;
        // every texture the pool makes (its allocator labels them "(pool ...)"), summed independently
        let pool_bytes = 0;
        const create_texture = device.createTexture;
        device.createTexture = function (descriptor: GPUTextureDescriptor): GPUTexture {
            if (String(descriptor.label).includes("(pool ")) {
                const [w, h] = Array.isArray(descriptor.size) ? descriptor.size : [(descriptor.size as GPUExtent3DDict).width, (descriptor.size as GPUExtent3DDict).height];
                pool_bytes += texture_byte_size(descriptor.format, w, h ?? 1);
            }
            return create_texture.call(this, descriptor);
        };
        const tracker = GPUMemoryTracker.of(device)!;
        expect(engine.render()).toBe(true);
        const memory = engine.gpu_memory();
        expect(pool_bytes).toBeGreaterThan(0);
        expect(memory.transients).toBe(pool_bytes);
        expect(memory.textures + memory.transients).toBe(tracker.texture_bytes);
        // the 32x32 offscreen target is an ordinary texture
        expect(memory.textures).toBeGreaterThanOrEqual(32 * 32 * 4);
        expect(memory.buffers).toBeGreaterThan(0); // the renderer's uniforms

        // twice the size: the new transients are 4x, and the old ones are evicted after a few frames
        target.resize(64, 64);
        for (let i = 0; i < 6; i++) engine.render();
        const bigger = engine.gpu_memory();
        expect(bigger.transients).toBe(memory.transients * 4);
        target.resize(32, 32);
        for (let i = 0; i < 6; i++) engine.render();
        expect(engine.gpu_memory()).toEqual(memory);
        expect(errors).toEqual([]);
    });

    it("counts what an extension makes on the device, and everything is 0 after stop(); a new device starts afresh", async () => {
        const { engine, errors } = await started();
        engine.render();
        const base = engine.gpu_memory();
        const owner = engine.add_extension(new BufferOwner());
        engine.render();
        expect(engine.gpu_memory().buffers - base.buffers).toBe(768);
        await engine.stop();
        expect(engine.gpu_memory()).toEqual({ transients: 0, buffers: 0, textures: 0, total: 0 });
        await engine.start();
        engine.render();
        expect(engine.gpu_memory().buffers).toBe(base.buffers + 768); // the new device: its own buffer, once
        engine.remove_extension(owner);
        expect(errors).toEqual([]);
    });

    it("a buffer dropped without destroy stops counting once collected", async () => {
        const { engine } = await started();
        const base = engine.gpu_memory().buffers;
        (() => {
            engine.device!.createBuffer({ label: "dropped", size: 1 << 20, usage: GPUBufferUsage.STORAGE });
        })();
        expect(engine.gpu_memory().buffers - base).toBe(1 << 20);
        for (let i = 0; i < 50 && engine.gpu_memory().buffers !== base; i++) {
            gc();
            await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(engine.gpu_memory().buffers).toBe(base);
    });

    it("installing a second tracker on a device is refused", async () => {
        const { engine } = await started();
        expect(() => GPUMemoryTracker.install(engine.device!)).toThrow(/already tracked/);
    });
});

// The pipeline cache on Dawn, counted through a proxy of the real device: the same key gives the same pipeline
// with no createRenderPipeline; a new key builds once; a new device builds again. PipelineKey and UniformBlock too.
import { describe, expect, it } from "vitest";
import { PipelineCache } from "../../../../shade/renderer/pipeline/PipelineCache.js";
import { PipelineKey } from "../../../../shade/renderer/pipeline/PipelineKey.js";
import { UniformBlock } from "../../../../shade/renderer/pipeline/UniformBlock.js";
import { pixel_at, read_texture, with_gpu_device } from "../../../harness/index.js";
import { counting_device } from "./counting_device.js";

const WGSL = /* wgsl */ `
@group(0) @binding(0) var<uniform> tint: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
    return vec4f(p[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return tint; }
`;

interface Spec {
    format: GPUTextureFormat;
    layout: GPUBindGroupLayout;
}

function build(device: GPUDevice, spec: Spec): GPURenderPipeline {
    const module = device.createShaderModule({ label: "pipeline cache test shader", code: WGSL });
    return device.createRenderPipeline({
        label: `pipeline cache test (${spec.format})`,
        layout: device.createPipelineLayout({ label: "pipeline cache test layout", bindGroupLayouts: [spec.layout] }),
        vertex: { module, entryPoint: "vs" },
        fragment: { module, entryPoint: "fs", targets: [{ format: spec.format }] },
    });
}

function layout_of(device: GPUDevice): GPUBindGroupLayout {
    return device.createBindGroupLayout({ label: "tint layout", entries: [{ binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: "uniform" } }] });
}

describe("PipelineCache on Dawn (counted through a proxy of the real device)", () => {
    it("the same key returns the same pipeline with no createRenderPipeline; another format builds once; both keys stay cached", async () => {
        await with_gpu_device(async (real) => {
            const { device, counts } = counting_device(real);
            const cache = new PipelineCache();
            const key = new PipelineKey(2);
            const spec: Spec = { format: "rgba8unorm", layout: layout_of(device) };
            key.set(0, "tint");
            key.set(1, spec.format);
            const first = cache.get(device, key.value, build, spec);
            expect(counts.render_pipelines).toBe(1);
            for (let i = 0; i < 10; i++) expect(cache.get(device, key.value, build, spec)).toBe(first);
            expect(counts.render_pipelines, "same key: no new pipeline").toBe(1);
            expect(key.changes, "the key string was made once").toBe(1);

            spec.format = "rgba16float";
            expect(key.set(1, spec.format)).toBe(true);
            const second = cache.get(device, key.value, build, spec);
            expect(second).not.toBe(first);
            for (let i = 0; i < 10; i++) cache.get(device, key.value, build, spec);
            expect(counts.render_pipelines, "a format change builds once").toBe(2);

            spec.format = "rgba8unorm";
            key.set(1, spec.format);
            expect(cache.get(device, key.value, build, spec), "changing back finds the first pipeline").toBe(first);
            expect(counts.render_pipelines).toBe(2);
            expect(cache.size(device)).toBe(2);
            expect(cache.builds).toBe(2);

            // the pipelines draw: the rgba8unorm one fills a target with the uniform block's colour
            const block = new UniformBlock("tint", 4);
            block.data.set([1, 0.5, 0, 1]);
            const texture = real.createTexture({ label: "pipeline cache test target", size: [4, 4], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
            const group = real.createBindGroup({ label: "tint group", layout: spec.layout, entries: [{ binding: 0, resource: { buffer: block.upload(real) } }] });
            const encoder = real.createCommandEncoder({ label: "pipeline cache test" });
            const pass = encoder.beginRenderPass({ label: "pipeline cache test / fill", colorAttachments: [{ view: texture.createView(), loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 0] }] });
            pass.setPipeline(first);
            pass.setBindGroup(0, group);
            pass.draw(3);
            pass.end();
            real.queue.submit([encoder.finish()]);
            const image = await read_texture(real, texture);
            expect(pixel_at(image, 1, 1)).toEqual([255, 128, 0, 255]);
            block.destroy();
            texture.destroy();
        });
    });

    it("a new device (a restart, a lost device) builds the pipeline again; the old device's stays its own", async () => {
        const cache = new PipelineCache();
        const made: GPURenderPipeline[] = [];
        for (let round = 0; round < 2; round++) {
            await with_gpu_device(async (real) => {
                const { device, counts } = counting_device(real);
                const spec: Spec = { format: "rgba8unorm", layout: layout_of(device) };
                expect(cache.has(device, "tint|rgba8unorm")).toBe(false);
                made.push(cache.get(device, "tint|rgba8unorm", build, spec));
                cache.get(device, "tint|rgba8unorm", build, spec);
                expect(counts.render_pipelines, `device ${round + 1}: built once`).toBe(1);
            });
        }
        expect(made[1]).not.toBe(made[0]);
        expect(cache.builds).toBe(2);
    });

    it("device-independent, with FAKE pipeline objects: past max_per_device the pipeline built longest ago is dropped and built again when asked", () => {
        const cache = new PipelineCache(2);
        const device = {} as GPUDevice; // only a WeakMap key here: nothing is called on it
        let made = 0;
        const fake = (): GPURenderPipeline => ({ label: `fake ${++made}` }) as GPURenderPipeline;
        const a = cache.get(device, "a", fake, null);
        cache.get(device, "b", fake, null);
        expect(cache.get(device, "a", fake, null)).toBe(a);
        cache.get(device, "c", fake, null);
        expect(cache.size(device)).toBe(2);
        expect(cache.has(device, "a"), "the oldest went").toBe(false);
        expect(cache.has(device, "b") && cache.has(device, "c")).toBe(true);
        expect(cache.get(device, "a", fake, null)).not.toBe(a);
        expect(made).toBe(4);
        expect(() => new PipelineCache(0)).toThrow(/max_per_device must be a positive integer/);
    });

    it("PipelineKey (device-independent): set reports changes; the string is joined again only after one", () => {
        const key = new PipelineKey(3);
        key.set(0, 7);
        key.set(1, "additive");
        key.set(2, "rgba16float");
        expect(key.value).toBe("7|additive|rgba16float");
        expect(key.set(1, "additive")).toBe(false);
        const same = key.value;
        expect(key.changes).toBe(1);
        expect(key.value).toBe(same);
        expect(key.set(1, "alpha")).toBe(true);
        expect(key.value).toBe("7|alpha|rgba16float");
        expect(key.changes).toBe(2);
        expect(() => key.set(3, "x")).toThrow(/index 3 outside \[0, 3\)/);
    });
});

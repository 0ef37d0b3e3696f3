// Misuse is refused at the call that made it, naming what is wrong, instead of failing later on the GPU every
// frame. Device-independent: a FAKE allocator backs the graph (the same checks run on Dawn in
// test/engine/CallValidation.gpu.test.ts).
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { INDEX_MASK } from "../../../../shade/device/graph/FrameGraphHandle.js";
import { MAX_INTERNED_DESCRIPTORS, TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionRegistry } from "../../../../shade/renderer/extension/RenderExtensionRegistry.js";
import { RenderView } from "../../../../shade/renderer/extension/RenderView.js";
import { PointLight } from "../../../../shade/renderer/scene/PointLight.js";
import { MAX_POINT_LIGHTS, Scene } from "../../../../shade/renderer/scene/Scene.js";
import { FakeAllocator, fake_execution, type FakeTexture } from "./fake_allocator.js";

const RGBA = TextureResourceDescriptor.from({ resolution: [8, 8], format: "rgba8unorm", usage: 0x14 });

class LimitedAllocator extends FakeAllocator {
    readonly max_texture_dimension = 8192;
}

function graph(): FrameGraph<FakeTexture, string> {
    return new FrameGraph<FakeTexture, string>(new LimitedAllocator());
}

describe("validation at the call (FAKE allocator)", () => {
    it("TextureResourceDescriptor.from checks the format against the WebGPU list", () => {
        expect(() => TextureResourceDescriptor.from({ resolution: [4, 4], format: "rgba8" as GPUTextureFormat, usage: 0x14 })).toThrow(
            'TextureResourceDescriptor: format must be a WebGPU texture format name (e.g. "rgba16float"), got "rgba8"',
        );
        expect(TextureResourceDescriptor.from({ resolution: [4, 4], format: "depth24plus-stencil8", usage: 0x10 }).format).toBe("depth24plus-stencil8");
    });

    it("TextureResourceDescriptor.from checks usage against the real GPUTextureUsage bits", () => {
        expect(() => TextureResourceDescriptor.from({ resolution: [4, 4], format: "rgba8unorm", usage: 0x100 })).toThrow(
            "TextureResourceDescriptor: usage must be GPUTextureUsage flags (COPY_SRC | COPY_DST | TEXTURE_BINDING | STORAGE_BINDING | RENDER_ATTACHMENT), got 256",
        );
    });

    it("a missing or malformed resolution gets a named error, not `reading '0'`", () => {
        const spec = { format: "rgba8unorm", usage: 0x14 } as unknown as Parameters<typeof TextureResourceDescriptor.from>[0];
        expect(() => TextureResourceDescriptor.from(spec)).toThrow(
            "TextureResourceDescriptor.from: resolution must be [width, height] (e.g. frame.resolution), got undefined",
        );
        expect(() => TextureResourceDescriptor.from({ resolution: [4], format: "rgba8unorm", usage: 0x14 })).toThrow("got [4]");
    });

    it("a texture larger than the device's maxTextureDimension2D is refused when the pass is recorded", () => {
        const g = graph();
        const b = g.add("too wide", null, () => {});
        const big = TextureResourceDescriptor.from({ resolution: [10000, 16], format: "rgba8unorm", usage: 0x14 });
        expect(() => b.create("wide strip", big)).toThrow(
            "Frame graph: 'wide strip' is 10000x16, larger than this device's maxTextureDimension2D (8192)",
        );
    });

    it("the descriptor intern table is bounded (a dynamic-resolution ramp does not grow it forever)", () => {
        for (let w = 1; w <= MAX_INTERNED_DESCRIPTORS * 2; w++) TextureResourceDescriptor.of(w, 3, "r8unorm", 0x14);
        expect(TextureResourceDescriptor.interned_count).toBeLessThanOrEqual(MAX_INTERNED_DESCRIPTORS);
        // still interned within the table's life
        expect(TextureResourceDescriptor.of(7, 7, "r8unorm", 0x14)).toBe(TextureResourceDescriptor.of(7, 7, "r8unorm", 0x14));
    });

    it("an attachment without RENDER_ATTACHMENT usage is caught by the graph, naming the pass and the texture", () => {
        const g = graph();
        const sampled_only = TextureResourceDescriptor.from({ resolution: [8, 8], format: "rgba8unorm", usage: 0x04 | 0x08 });
        const b = g.add("paint", null, (_d, resources) => {
            resources.color_attachment(out);
        });
        const out = b.write(b.create("canvas-sized", sampled_only));
        b.make_side_effect();
        expect(() => g.execute(fake_execution())).toThrow(
            "Frame graph: pass 'paint' failed to execute: Frame graph: pass 'paint' uses 'canvas-sized' as an attachment (resources.color_attachment), but its usage lacks GPUTextureUsage.RENDER_ATTACHMENT",
        );
    });

    it("a handle from frame N is refused at N+1, N+256, N+1024 and N+4096 (no 8- or 10-bit wrap)", () => {
        const g = graph();
        const first = g.add("make", null, () => {});
        const stale = first.write(first.create("t", RGBA));
        for (let frame = 1; frame <= 4096; frame++) {
            g.reset();
            const b = g.add("make", null, () => {});
            const fresh = b.write(b.create("t", RGBA));
            expect(fresh & INDEX_MASK).toBe(stale & INDEX_MASK); // same index: only the epoch tells them apart
            if (frame === 1 || frame === 256 || frame === 1024 || frame === 4096) {
                const reader = g.add("read", null, () => {});
                expect(() => reader.read(stale)).toThrow("belongs to an earlier frame; handles live for one frame");
            }
        }
    });

    it("a pass builder kept across frames is refused rather than re-targeting the pass now at its index", () => {
        const g = graph();
        const kept = g.add("first frame's pass", null, () => {});
        g.reset();
        g.add("second frame's pass", null, () => {});
        expect(() => kept.create("t", RGBA)).toThrow(
            "Frame graph: the builder of pass 'second frame's pass' was kept from an earlier frame; a builder is valid only in the frame graph.add returned it",
        );
    });

    it("frame.graph from a FrameContext kept past its frame is refused", () => {
        const frame = new FrameContext(graph() as unknown as FrameGraph, new RenderView());
        frame.begin(8, 8, 8, 8);
        expect(frame.graph).toBeDefined();
        frame.close();
        expect(() => frame.graph.add("late", null, () => {})).toThrow("frame.graph used after the frame closed");
    });

    it("after/before holding a function that is not a RenderExtension class is refused at the add that declared it", () => {
        class Honest extends RenderExtension {
            name = "honest";
            phase = FramePhase.Overlay;
            record(): void {}
        }
        class Confused extends RenderExtension {
            name = "confused";
            phase = FramePhase.Overlay;
            after = [(() => 0) as unknown as typeof Honest];
            record(): void {}
        }
        const registry = new RenderExtensionRegistry();
        registry.add(new Honest());
        expect(() => registry.add(new Confused())).toThrow(
            "add_extension: render extension 'confused'.after must be an array of classes (not instances, names or functions): after[0] is an anonymous function, which is not a RenderExtension class",
        );
        class NotAnExtension {}
        class AlsoConfused extends Confused {
            name = "also confused";
            after = [NotAnExtension as unknown as typeof Honest];
        }
        expect(() => registry.add(new AlsoConfused())).toThrow("after[0] is NotAnExtension, which is not a RenderExtension class");
        expect(registry.extension_count(FramePhase.Overlay)).toBe(1);
    });

    it("point lights pushed straight into scene.point_lights fail loudly; add_point_light refuses past the maximum", () => {
        const scene = new Scene();
        expect(() => (scene.point_lights as PointLight[]).push(new PointLight())).toThrow(
            "Scene.point_lights is read-only: add lights with scene.add_point_light(light)",
        );
        for (let i = 0; i < MAX_POINT_LIGHTS; i++) scene.add_point_light(new PointLight());
        expect(() => scene.add_point_light(new PointLight())).toThrow(`at most ${MAX_POINT_LIGHTS} point lights`);
        expect(scene.point_lights.length).toBe(MAX_POINT_LIGHTS);
        expect(scene.point_light_count).toBe(MAX_POINT_LIGHTS);
    });
});

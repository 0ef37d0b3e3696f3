// The replaceable upscale slot on Dawn (PlayCanvas `resolveScene`): a user upscaler replaces TAA, its output
// size is checked, "none" runs one resolution, and GraphicsEngine keeps the slot across restarts.
import { describe, expect, it } from "vitest";
import { Engine } from "../../../../engine/Engine.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { FullscreenEffect } from "../../../../shade/renderer/fullscreen/FullscreenEffect.js";
import { make_sphere_geometry } from "../../../../shade/renderer/geometry/primitives/make_sphere_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { SCENE_COLOR_FORMAT } from "../../../../shade/renderer/steps/LightingStep.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import type { Upscaler } from "../../../../shade/renderer/upscale/Upscaler.js";
import { get_gpu, pixel_at, read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;

/** Nearest-neighbour upscale: each output pixel takes the internal pixel under it; 4x fewer pixels each way. */
class NearestUpscaler implements Upscaler {
    readonly name = "nearest upscale";
    readonly resolution_scale: number;
    frames = 0;
    readonly #effect = new FullscreenEffect({
        label: "nearest upscale",
        inputs: 1,
        format: SCENE_COLOR_FORMAT,
        fragment: /* wgsl */ `fn effect(uv: vec2f) -> vec4f { return load_input_0(vec2i(floor(uv / texel_0()))); }`,
    });
    constructor(scale = 0.25) {
        this.resolution_scale = scale;
    }
    record(frame: FrameContext): void {
        this.frames++;
        const scene = frame.get(SceneColor);
        const out = frame.output_resolution;
        const output = frame.graph.create("nearest upscaled colour", TextureResourceDescriptor.of(out[0], out[1], SCENE_COLOR_FORMAT, 0x10 | 0x04 | 0x01));
        scene.color = this.#effect.graph_draw(frame.graph, output, scene.color);
    }
}

function lit_sphere(): Scene {
    const scene = new Scene();
    scene.add(new Mesh(make_sphere_geometry(1.5, 24, 16), new StandardMaterial({ base_color: [0.9, 0.5, 0.2, 1], roughness: 0.4 })));
    return scene;
}

/** How many 4x4 blocks of the image are not one colour throughout. */
function mixed_blocks(image: TextureReadback, block: number): number {
    let mixed = 0;
    for (let by = 0; by < SIZE; by += block) {
        for (let bx = 0; bx < SIZE; bx += block) {
            const first = pixel_at(image, bx, by).join();
            let same = true;
            for (let y = by; y < by + block && same; y++) for (let x = bx; x < bx + block && same; x++) same = pixel_at(image, x, y).join() === first;
            if (!same) mixed++;
        }
    }
    return mixed;
}

/** Distinct colours in the image. */
function colours(image: TextureReadback): number {
    const seen = new Set<string>();
    for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) seen.add(pixel_at(image, x, y).join());
    return seen.size;
}

describe("replaceable upscale on Dawn", () => {
    it("a user upscaler replaces TAA: its pass runs under its name at a quarter resolution and the picture is nearest-neighbour blocks", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const target = new TextureRenderTarget(SIZE, SIZE);
            const upscaler = new NearestUpscaler();
            const renderer = new Renderer({ device, target, scene: lit_sphere(), upscale: upscaler, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            renderer.render_frame();
            const image = await read_texture(device, target.acquire());
            write_readback_png(image, "upscale_nearest");
            expect(upscaler.frames).toBe(1);
            expect(renderer.feature_taa_enabled).toBe(false);
            const passes = renderer.last_frame_passes;
            expect(passes.find((p) => p.name === "nearest upscale")).toEqual({ name: "nearest upscale", scope: "nearest upscale", culled: false });
            expect(passes.map((p) => p.name)).not.toContain("taa resolve");
            // a 16x16 internal image blown up 4x: every 4x4 block one colour, and the sphere's shading shows
            expect(mixed_blocks(image, 4)).toBe(0);
            expect(colours(image)).toBeGreaterThan(10);

            // the built-in TAA at the same scale blends: blocks are not flat
            renderer.upscale = "taa";
            renderer.resolution_scale = 0.25;
            renderer.render_frame();
            const taa = await read_texture(device, target.acquire());
            expect(mixed_blocks(taa, 4)).toBeGreaterThan(0);
            expect(renderer.last_frame_passes.map((p) => p.name)).toContain("taa resolve");

            // "none": one resolution, no upscale pass at all
            renderer.upscale = "none";
            renderer.render_frame();
            const none = await read_texture(device, target.acquire());
            expect(renderer.last_frame_passes.map((p) => p.name).filter((n) => /taa|upscale/.test(n))).toEqual([]);
            expect(mixed_blocks(none, 4)).toBeGreaterThan(0);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("an upscaler that does not publish the output size is named in the error; a bad slot is refused on assignment", async () => {
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(SIZE, SIZE);
            const lazy: Upscaler = { name: "lazy upscaler", resolution_scale: 0.5, record: () => {} };
            const renderer = new Renderer({ device, target, scene: lit_sphere(), upscale: lazy });
            expect(() => renderer.render_frame()).toThrow("Upscaler 'lazy upscaler' left SceneColor at 32x32; it must publish the scene colour at the output size 64x64");
            const throwing: Upscaler = {
                name: "broken upscaler",
                record: () => {
                    throw new Error("boom");
                },
            };
            renderer.upscale = throwing;
            expect(() => renderer.render_frame()).toThrow("Upscaler 'broken upscaler' failed to record at BeforePresent");
            // the frame after a failure is fresh
            renderer.upscale = new NearestUpscaler();
            expect(renderer.render_frame()).toBe(true);
            expect(() => (renderer.upscale = "fsr" as never)).toThrow('Renderer.upscale: the upscale slot takes "taa", "none" or an upscaler ({ name, record(frame) }), got "fsr"');
            expect(() => (renderer.upscale = { name: "x", record: () => {}, resolution_scale: 9 } as Upscaler)).toThrow(
                "upscaler 'x' has resolution_scale 9; it must be a number in (0, 4]",
            );
            renderer.destroy();
        });
    });

    it("GraphicsEngine keeps a user upscaler across stop() -> start()", async () => {
        const target = new TextureRenderTarget(SIZE, SIZE);
        const errors: Error[] = [];
        const engine = new Engine({ graphics: { gpu: get_gpu(), target, on_error: (e: Error) => errors.push(e) } });
        const graphics = engine.graphics;
        const upscaler = new NearestUpscaler();
        graphics.upscale = upscaler;
        graphics.scene.add(new Mesh(make_sphere_geometry(1.5, 24, 16), new StandardMaterial({ base_color: [0.9, 0.5, 0.2, 1] })));
        graphics.view.camera.position.set([0, 0, 5]);
        await graphics.start();
        graphics.render();
        await graphics.stop();
        await graphics.start();
        expect(graphics.upscale).toBe(upscaler);
        expect(graphics.renderer!.upscale).toBe(upscaler);
        graphics.render();
        const image = await read_texture(graphics.device!, target.acquire());
        expect(upscaler.frames).toBe(2);
        expect(mixed_blocks(image, 4)).toBe(0);
        graphics.feature_taa_enabled = true;
        expect(graphics.upscale).toBe("taa");
        expect(errors).toEqual([]);
        await graphics.stop();
    });
});

// The seed's MarkerExtension (MarkerExtension.ts: the seed's code, only imports and types adapted) on the
// real Renderer, on Dawn: the marker lands at AfterTransparency, blended over the scene colour, then tonemapped.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { expect_pixel, read_texture, tonemapped, with_gpu_device, write_readback_png } from "../../../harness/index.js";
import { MarkerExtension } from "./MarkerExtension.js";

const SIZE = 64;
// the empty scene's lit colour (the sky), as the renderer's own tests have it
const SKY = [0.05, 0.07, 0.1];
const MARKER = [1, 0.2, 0, 0.8];
// 8-bit units, after an rgba16float scene colour and the tonemap
const TOLERANCE = 3;

/** Straight-alpha over of the marker on the sky, in linear HDR, then the renderer's tonemap. */
const expected_marker = [0, 1, 2].map((i) => tonemapped(MARKER[3] * MARKER[i] + (1 - MARKER[3]) * SKY[i]));

describe("MarkerExtension on the Renderer (Dawn)", () => {
    it("a box added with [1, 0.2, 0, 0.8] appears over the scene at AfterTransparency; rewriting it with needsUpdate moves it", async () => {
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false });
            renderer.capture_graph_dump = true;
            const markers = renderer.add_extension(new MarkerExtension());
            expect(renderer.extension_count(FramePhase.AfterTransparency)).toBe(1);

            const geometry = make_box_geometry(1, 1, 1);
            markers.add(geometry, MARKER);
            renderer.render_frame();
            let image = await read_texture(device, target.acquire());
            write_readback_png(image, "marker_extension");
            // the renderer's pass, inside the extension's scope (a debug group on the GPU, a cluster in the dump)
            expect(renderer.last_frame_dot).toMatch(/label="markers";[^}]*label="dynamic meshes \/ draw"/);
            // the default camera looks at the origin from (0, 2, 6): the box covers the centre
            expect_pixel(image, 32, 32, expected_marker, TOLERANCE, "marker_extension");
            expect_pixel(image, 4, 4, SKY.map(tonemapped), TOLERANCE, "marker_extension");
            expect_pixel(image, 48, 32, SKY.map(tonemapped), TOLERANCE, "marker_extension");

            // the vertices are yours to rewrite; nothing watches the arrays
            const position = geometry.attributes.position.array;
            for (let i = 0; i < position.length; i += 3) position[i] += 2;
            renderer.render_frame();
            image = await read_texture(device, target.acquire());
            expect_pixel(image, 32, 32, expected_marker, TOLERANCE, "marker_extension_unflagged");

            geometry.needsUpdate = true;
            renderer.render_frame();
            image = await read_texture(device, target.acquire());
            write_readback_png(image, "marker_extension_moved");
            expect_pixel(image, 32, 32, SKY.map(tonemapped), TOLERANCE, "marker_extension_moved");
            expect_pixel(image, 48, 32, expected_marker, TOLERANCE, "marker_extension_moved");

            expect(renderer.remove_extension(markers)).toBe(true);
            markers.destroy();
            renderer.destroy(); // releases the target too
        });
    });

    it("with nothing added it records no pass and the frame is exactly the frame without it", async () => {
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(SIZE, SIZE);
            const renderer = new Renderer({ device, target, feature_taa_enabled: false });
            renderer.capture_graph_dump = true;
            renderer.render_frame();
            const without = await read_texture(device, target.acquire());
            const markers = renderer.add_extension(new MarkerExtension());
            renderer.render_frame();
            const with_empty = await read_texture(device, target.acquire());
            expect(renderer.last_frame_dot).not.toContain("dynamic meshes / draw");
            expect(Array.from(with_empty.data)).toEqual(Array.from(without.data));
            renderer.remove_extension(markers);
            markers.destroy();
            renderer.destroy(); // releases the target too
        });
    });
});

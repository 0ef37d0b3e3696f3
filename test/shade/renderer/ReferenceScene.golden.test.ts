// A golden image of the reference scene (lit meshes, a glass pane), TAA off so the frame is deterministic.
// Regenerate with UPDATE_GOLDEN=1 after an intended change, and look at the new PNG before committing it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { make_reference_scene, place_reference_camera } from "../../../samples/reference/reference_scene.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { read_png, read_texture, to_rgba8, with_gpu_device, write_png, write_readback_png } from "../../harness/index.js";

const GOLDEN = join(fileURLToPath(new URL("../../golden/", import.meta.url)), "reference_scene.png");
// SwiftShader is deterministic on one machine; allow rounding differences across CPUs and driver builds
const CHANNEL_TOLERANCE = 6;
const MAX_BAD_FRACTION = 0.005;

describe("reference scene golden image", () => {
    it(`matches test/golden/reference_scene.png within ${CHANNEL_TOLERANCE}/255 on all but ${MAX_BAD_FRACTION * 100}% of channels`, async () => {
        await with_gpu_device(async (device) => {
            const target = new TextureRenderTarget(128, 96);
            const renderer = new Renderer({ device, target, scene: make_reference_scene(), feature_taa_enabled: false });
            place_reference_camera(renderer.view.camera);
            renderer.render_frame();
            const image = await read_texture(device, target.acquire());
            const actual = to_rgba8(image);
            const path = write_readback_png(image, "reference_scene");
            if (process.env.UPDATE_GOLDEN === "1") write_png(GOLDEN, image.width, image.height, actual);
            expect(existsSync(GOLDEN), `no golden image at ${GOLDEN}; run with UPDATE_GOLDEN=1 and look at ${path}`).toBe(true);
            const golden = read_png(GOLDEN);
            expect([golden.width, golden.height]).toEqual([image.width, image.height]);
            let bad = 0;
            let worst = 0;
            const diff = new Uint8Array(actual.length);
            for (let i = 0; i < actual.length; i++) {
                const d = Math.abs(actual[i] - golden.rgba[i]);
                worst = Math.max(worst, d);
                if (d > CHANNEL_TOLERANCE) bad++;
                diff[i] = (i & 3) === 3 ? 255 : Math.min(255, d * 8);
            }
            if (bad > actual.length * MAX_BAD_FRACTION) {
                const diff_path = path.replace(/\.png$/, "_diff.png");
                write_png(diff_path, image.width, image.height, diff);
                throw new Error(`${bad} channels differ by more than ${CHANNEL_TOLERANCE} (worst ${worst}); see ${path} and ${diff_path}`);
            }
            renderer.destroy();
        });
    });
});

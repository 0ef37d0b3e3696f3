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
// SwiftShader is deterministic: on this machine the frame matches the golden bit for bit. The budgets leave
// room for a last-bit rounding difference on another CPU or driver build, and no more: a shading change as
// small as the Fresnel exponent going from 5 to 4 moves 2400 channels by 1..5 levels, concentrated on a few
// regions, and must fail.
const CHANNEL_TOLERANCE = 2;
const MAX_BAD_FRACTION = 0.0005;
// Per region: the mean difference over its RGB channels, in 1/255 units. Rounding noise is sparse +/-1 and
// averages far below this; a systematic change of one surface does not.
const REGION = 8;
const MAX_REGION_MEAN = 0.25;

describe("reference scene golden image", () => {
    it(
        `matches test/golden/reference_scene.png within ${CHANNEL_TOLERANCE}/255 on all but ${MAX_BAD_FRACTION * 100}% ` +
            `of channels, and within a mean of ${MAX_REGION_MEAN}/255 in every ${REGION}x${REGION} region`,
        async () => {
            await with_gpu_device(async (device) => {
                const target = new TextureRenderTarget(128, 96);
                const renderer = new Renderer({ device, target, scene: make_reference_scene(), feature_taa_enabled: false });
                place_reference_camera(renderer.view.camera);
                renderer.render_frame();
                const image = await read_texture(device, target.acquire());
                renderer.destroy();
                const actual = to_rgba8(image);
                const path = write_readback_png(image, "reference_scene");
                if (process.env.UPDATE_GOLDEN === "1") write_png(GOLDEN, image.width, image.height, actual);
                expect(existsSync(GOLDEN), `no golden image at ${GOLDEN}; run with UPDATE_GOLDEN=1 and look at ${path}`).toBe(true);
                const golden = read_png(GOLDEN);
                expect([golden.width, golden.height]).toEqual([image.width, image.height]);

                const { width, height } = image;
                const regions_x = Math.ceil(width / REGION);
                const region_sum = new Float64Array(regions_x * Math.ceil(height / REGION));
                const region_channels = new Float64Array(region_sum.length);
                const diff = new Uint8Array(actual.length);
                let bad = 0;
                let worst = 0;
                for (let y = 0; y < height; y++) {
                    for (let x = 0; x < width; x++) {
                        const region = Math.floor(y / REGION) * regions_x + Math.floor(x / REGION);
                        for (let c = 0; c < 4; c++) {
                            const i = (y * width + x) * 4 + c;
                            const d = Math.abs(actual[i] - golden.rgba[i]);
                            worst = Math.max(worst, d);
                            if (d > CHANNEL_TOLERANCE) bad++;
                            diff[i] = c === 3 ? 255 : Math.min(255, d * 32);
                            if (c === 3) continue;
                            region_sum[region] += d;
                            region_channels[region]++;
                        }
                    }
                }
                const failures: string[] = [];
                if (bad > actual.length * MAX_BAD_FRACTION) {
                    failures.push(`${bad} channels differ by more than ${CHANNEL_TOLERANCE} (worst ${worst})`);
                }
                for (let r = 0; r < region_sum.length; r++) {
                    const mean = region_sum[r] / region_channels[r];
                    if (mean > MAX_REGION_MEAN) {
                        const x = (r % regions_x) * REGION;
                        const y = Math.floor(r / regions_x) * REGION;
                        failures.push(`region at (${x}, ${y}) differs by a mean of ${mean.toFixed(2)}/255`);
                    }
                }
                if (failures.length > 0) {
                    const diff_path = path.replace(/\.png$/, "_diff.png");
                    write_png(diff_path, width, height, diff);
                    throw new Error(`${failures.join("; ")}; see ${path} and ${diff_path} (differences x32)`);
                }
            });
        },
    );
});

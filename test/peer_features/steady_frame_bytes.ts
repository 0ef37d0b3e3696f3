// Young-generation bytes per steady frame of a Renderer on a FAKE device (device-independent: every object the
// device returns is made once, so Dawn's JS wrappers are out of the count), for the worked examples' allocation
// checks. Method and its positive control: test/harness/allocation.ts, test/shade/renderer/Renderer.alloc.test.ts.
import { Renderer } from "../../shade/renderer/Renderer.js";
import type { Scene } from "../../shade/renderer/scene/Scene.js";
import { TextureRenderTarget } from "../../shade/renderer/target/TextureRenderTarget.js";
import { steady_bytes_per_frame } from "../harness/allocation.js";
import { fake_gpu_device } from "../shade/renderer/fake_gpu_device.js";

/** Below this a frame allocates nothing (the smallest JS object is 12-16 bytes). */
export const STEADY_BYTES_BOUND = 8;

/**
 * Renders `setup`'s frame on a FAKE device until warm and returns its median young bytes per frame, with the
 * textures the device created in steady state (a pool that keeps creating shows there).
 */
export async function steady_frame_bytes(
    setup: (renderer: Renderer) => void,
    scene?: Scene,
): Promise<{ bytes: number; textures_in_steady_state: number }> {
    const { device, stats } = fake_gpu_device();
    const renderer = new Renderer({ device, target: new TextureRenderTarget(64, 64), scene, feature_taa_enabled: false });
    setup(renderer);
    const frame = (): void => {
        renderer.render_frame();
    };
    for (let i = 0; i < 1500; i++) frame();
    const textures = stats.textures;
    const reading = await steady_bytes_per_frame([frame], { window: 250, accept: (m) => m[0] < STEADY_BYTES_BOUND });
    const textures_in_steady_state = stats.textures - textures;
    renderer.destroy();
    return { bytes: reading.medians[0], textures_in_steady_state };
}

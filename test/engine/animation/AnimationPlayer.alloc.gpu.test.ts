// AnimationPlayer.update allocates nothing once warm: a Fox player sampling one clip, and one cross-fading between
// two (a fade so long that it never ends while measured). Method: test/harness/allocation.ts. Starting a clip or a
// fade is not a per-frame call and is not measured.
import { describe, expect, it } from "vitest";
import { AnimationPlayer } from "../../../engine/animation/AnimationPlayer.js";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import { steady_bytes_per_frame } from "../../harness/allocation.js";
import { with_gpu_device } from "../../harness/index.js";
import { FOX } from "../assets/asset_files.js";

async function warm_up(frame: () => void): Promise<void> {
    for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 4000; i++) frame();
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}

describe("AnimationPlayer allocation", () => {
    it("after warm-up, sampling a clip and sampling a cross-fade allocate nothing per update", async () => {
        const model = await with_gpu_device(async (device) => {
            const loaded = await load_gltf(FOX, { device });
            loaded.destroy(); // the CPU data is all the player needs
            return loaded;
        });
        const playing = new AnimationPlayer(model.animations, model.nodes);
        playing.play("Run");
        const fading = new AnimationPlayer(model.animations, model.nodes);
        fading.play("Walk");
        fading.cross_fade("Survey", 1e7);
        const play = (): void => playing.update(1 / 60);
        const fade = (): void => fading.update(1 / 60);
        await warm_up(play);
        await warm_up(fade);
        const { medians } = await steady_bytes_per_frame([play, fade], { window: 500, accept: (m) => m.every((b) => b === 0) });
        expect(fading.fade).toBeLessThan(1);
        expect(medians).toEqual([0, 0]);
    });
});

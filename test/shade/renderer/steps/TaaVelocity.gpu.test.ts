// TAA with the Velocity product on Dawn: a box moving sideways over a still backdrop leaves less of a trail and
// less smear when the resolve reprojects by velocity than through depth and the camera alone (which knows
// nothing of the box's own motion). Error is measured against the same final frame with the box held still
// (a converged resolve).
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../../harness/index.js";

const SIZE = 64;
const FRAMES = 24;
const STEP = 0.08;
const START = -1.2;
/** A pixel is ghosted when it is off the still reference by more than this, in 8-bit units on any channel. */
const GHOST = 12;

function scene(): { scene: Scene; box: Mesh } {
    const scene = new Scene();
    const backdrop = new Mesh(make_box_geometry(12, 12, 0.2), new StandardMaterial({ base_color: [0.1, 0.35, 0.12, 1] }));
    backdrop.position.set([0, 0, -1.5]);
    scene.add(backdrop);
    const box = new Mesh(make_box_geometry(0.8, 0.8, 0.8), new StandardMaterial({ base_color: [1, 0.85, 0.6, 1] }));
    scene.add(box);
    return { scene, box };
}

async function final_frame(device: GPUDevice, moving: boolean, velocity: boolean): Promise<{ image: TextureReadback; had_velocity: boolean }> {
    const { scene: s, box } = scene();
    const target = new TextureRenderTarget(SIZE, SIZE);
    const renderer = new Renderer({ device, target, scene: s, resolution_scale: 1 });
    renderer.taa_uses_velocity = velocity;
    renderer.capture_pass_list = true;
    renderer.view.camera.position.set([0, 0, 4]);
    for (let i = 0; i < FRAMES; i++) {
        box.position.set([moving ? START + STEP * i : START + STEP * (FRAMES - 1), 0, 0]);
        renderer.render_frame();
    }
    const had_velocity = renderer.last_frame_passes.some((p) => p.name === "velocity");
    const image = await read_texture(device, target.acquire());
    renderer.destroy();
    return { image, had_velocity };
}

function compare(image: TextureReadback, reference: TextureReadback): { ghosted: number; error: number } {
    let ghosted = 0;
    let error = 0;
    for (let i = 0; i < SIZE * SIZE; i++) {
        let worst = 0;
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(image.data[i * 4 + c] - reference.data[i * 4 + c]));
        if (worst > GHOST) ghosted++;
        error += worst;
    }
    return { ghosted, error: error / (SIZE * SIZE) };
}

describe("TAA with velocity on Dawn", () => {
    it("a moving box leaves less ghosting behind with velocity than with depth reprojection alone", async () => {
        await with_gpu_device(async (device) => {
            const still = await final_frame(device, false, true);
            const with_velocity = await final_frame(device, true, true);
            const without = await final_frame(device, true, false);
            write_readback_png(still.image, "taa_velocity_still");
            write_readback_png(with_velocity.image, "taa_velocity_on");
            write_readback_png(without.image, "taa_velocity_off");
            expect(still.had_velocity, "nothing moves: no velocity pass").toBe(false);
            expect(with_velocity.had_velocity).toBe(true);
            expect(without.had_velocity).toBe(false);
            const on = compare(with_velocity.image, still.image);
            const off = compare(without.image, still.image);
            console.log(
                `[taa velocity] box ${STEP} units/frame: ghosted pixels (> ${GHOST}/255 off the still frame) ${on.ghosted} with velocity, ${off.ghosted} without; ` +
                    `mean max-channel error ${on.error.toFixed(2)} vs ${off.error.toFixed(2)}`,
            );
            expect(on.ghosted).toBeLessThan(off.ghosted * 0.5);
            expect(on.error).toBeLessThan(off.error);
        });
    });
});

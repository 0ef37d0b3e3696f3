// The Velocity frame product on Dawn: a box moving sideways reads its screen motion where it is and ~0 on the
// static backdrop and sky; made only for an extension that declares it or for TAA when meshes move; absent
// (no pass, no texture) otherwise.
import { vec4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import type { FrameExecution } from "../../../../shade/device/graph/FrameExecution.js";
import type { FrameGraphHandle } from "../../../../shade/device/graph/FrameGraphHandle.js";
import type { FrameGraphResources } from "../../../../shade/device/graph/FrameGraphResources.js";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { FULLSCREEN_VERTEX_WGSL } from "../../../../shade/renderer/fullscreen/fullscreen_vertex_wgsl.js";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { Velocity, VELOCITY_FORMAT } from "../../../../shade/renderer/products/Velocity.js";
import { Renderer } from "../../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_png } from "../../../harness/index.js";
import { TextureProbe } from "./probe.js";

const SIZE = 64;

function scene(): { scene: Scene; box: Mesh } {
    const scene = new Scene();
    // a static backdrop over the lower half (the upper corners stay sky)
    const backdrop = new Mesh(make_box_geometry(6, 2, 0.2), new StandardMaterial({ base_color: [0.2, 0.5, 0.2, 1] }));
    backdrop.position.set([0, -1.2, -2]);
    scene.add(backdrop);
    const box = new Mesh(make_box_geometry(1, 1, 1), new StandardMaterial({ base_color: [0.9, 0.3, 0.1, 1] }));
    box.position.set([-0.4, 0, 0]);
    scene.add(box);
    return { scene, box };
}

// the uv of a world point through the camera's (unjittered: TAA off) view-projection
function uv_of(renderer: Renderer, x: number, y: number, z: number): [number, number] {
    const p = vec4.transformMat4(vec4.create(), [x, y, z, 1], renderer.view.camera.view_projection);
    return [(p[0] / p[3]) * 0.5 + 0.5, 0.5 - (p[1] / p[3]) * 0.5];
}

/** AfterGBuffer: writes depth DEPTH over the left half of the depth (a still surface, as terrain draws one). */
class DepthPainter extends RenderExtension {
    override name = "depth painter";
    override phase = FramePhase.AfterGBuffer;
    #pipeline: GPURenderPipeline | null = null;
    #depth: FrameGraphHandle = -1;
    override record(frame: FrameContext): void {
        if (this.#pipeline === null) {
            const module = frame.device.createShaderModule({
                label: "depth painter shader",
                code: /* wgsl */ `
${FULLSCREEN_VERTEX_WGSL}
@fragment fn fs_main(in: FullscreenVarying) -> @builtin(frag_depth) f32 {
    if (in.uv.x > 0.5) { discard; }
    return ${DEPTH};
}`,
            });
            this.#pipeline = frame.device.createRenderPipeline({
                label: "depth painter pipeline",
                layout: "auto",
                vertex: { module, entryPoint: "vs_fullscreen" },
                fragment: { module, entryPoint: "fs_main", targets: [] },
                depthStencil: { format: "depth32float", depthWriteEnabled: true, depthCompare: "always" },
            });
        }
        const view = frame.get(ViewTextures);
        const pass = frame.graph.add("depth painter", this, (self: DepthPainter, r: FrameGraphResources, e: FrameExecution) => self.execute(r, e));
        this.#depth = pass.write(view.depth, "load");
        view.depth = this.#depth;
    }
    execute(resources: FrameGraphResources, execution: FrameExecution): void {
        const pass = execution.encoder.beginRenderPass({ label: "depth painter", colorAttachments: [], depthStencilAttachment: resources.depth_attachment(this.#depth) });
        pass.setPipeline(this.#pipeline!);
        pass.draw(3);
        pass.end();
    }
}
const DEPTH = 0.99;

function passes(renderer: Renderer): string[] {
    return renderer.last_frame_passes.map((p) => p.name);
}

describe.each(["raster", "compute"] as const)("Velocity frame product on Dawn (%s path)", (path) => {
    it("a box moving sideways reads its screen motion where it is, ~0 on the static backdrop and the sky", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { scene: s, box } = scene();
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            const before = uv_of(renderer, -0.4, 0, 0.5);
            box.position.set([0.4, 0, 0]);
            renderer.render_frame();
            const after = uv_of(renderer, 0.4, 0, 0.5);
            const v = await read_texture(device, probe.texture!);
            expect(v.format).toBe(VELOCITY_FORMAT);
            const at = (x: number, y: number): [number, number] => [v.data[(y * SIZE + x) * v.channels], v.data[(y * SIZE + x) * v.channels + 1]];

            // picture: red = +x motion, green = +y motion (x 4, over mid grey)
            const rgba = new Uint8Array(SIZE * SIZE * 4);
            for (let i = 0; i < SIZE * SIZE; i++) {
                rgba[i * 4] = Math.max(0, Math.min(255, 128 + v.data[i * v.channels] * 4 * 255));
                rgba[i * 4 + 1] = Math.max(0, Math.min(255, 128 + v.data[i * v.channels + 1] * 4 * 255));
                rgba[i * 4 + 2] = 128;
                rgba[i * 4 + 3] = 255;
            }
            write_png("/tmp/velocity_moving_box.png", SIZE, SIZE, rgba);

            const expected_x = after[0] - before[0];
            const expected_y = after[1] - before[1];
            const cx = Math.floor(after[0] * SIZE);
            const cy = Math.floor(after[1] * SIZE);
            const [vx, vy] = at(cx, cy);
            console.log(`[velocity] box front centre at (${cx}, ${cy}): (${vx.toFixed(4)}, ${vy.toFixed(4)}), expected (${expected_x.toFixed(4)}, ${expected_y.toFixed(4)})`);
            expect(expected_x).toBeGreaterThan(0.1);
            expect(Math.abs(vx - expected_x)).toBeLessThan(0.005);
            expect(Math.abs(vy - expected_y)).toBeLessThan(0.005);
            // the whole front face moves alike (it translates); background pixels: the sky, the backdrop
            let moving = 0;
            let background_max = 0;
            for (let y = 0; y < SIZE; y++) {
                for (let x = 0; x < SIZE; x++) {
                    const [a, b] = at(x, y);
                    if (Math.hypot(a - expected_x, b) < 0.01) moving++;
                    else background_max = Math.max(background_max, Math.hypot(a, b));
                }
            }
            // the box's front face is about (1 x 1.732 / 4.5 / 2 x 64)^2 = 150 pixels; the rest is still
            console.log(`[velocity] ${moving} pixels move with the box; the largest |velocity| elsewhere ${background_max.toExponential(2)}`);
            expect(moving).toBeGreaterThan(100);
            expect(moving).toBeLessThan(260);
            expect(background_max, "the still backdrop and the sky").toBeLessThan(0.01);
            expect(Math.abs(at(1, 1)[0]), "sky").toBeLessThan(1e-5);
            expect(Math.abs(at(cx, SIZE - 4)[0]), "backdrop below the box").toBeLessThan(1e-4);

            // hidden for a frame and moved back: not drawn last frame, so no motion of its own (not a jump)
            box.visible = false;
            renderer.render_frame();
            box.position.set([-0.4, 0, 0]);
            box.visible = true;
            renderer.render_frame();
            const back = uv_of(renderer, -0.4, 0, 0.5);
            const shown = await read_texture(device, probe.texture!);
            const i = Math.floor(back[1] * SIZE) * SIZE + Math.floor(back[0] * SIZE);
            expect(Math.abs(shown.data[i * shown.channels]), "a mesh shown again starts still").toBeLessThan(1e-4);

            // moved for one frame, then left where it is: the frame after the move reads no motion
            box.position.set([0.4, 0, 0]);
            renderer.render_frame();
            renderer.render_frame();
            const rest = uv_of(renderer, 0.4, 0, 0.5);
            const still = await read_texture(device, probe.texture!);
            const j = Math.floor(rest[1] * SIZE) * SIZE + Math.floor(rest[0] * SIZE);
            expect(Math.abs(still.data[j * still.channels]), "a mesh that stopped reads still").toBeLessThan(1e-4);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("is made only for a declaring extension, or for TAA while meshes move; otherwise no pass and no texture", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { scene: s, box } = scene();
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.view.camera.position.set([0, 0, 5]);
            renderer.capture_pass_list = true;
            renderer.capture_graph_dump = true;
            let frame_had = true;
            renderer.add_extension(new TextureProbe("looker", FramePhase.BeforePresent, [], (f) => ((frame_had = f.has(Velocity)), null)));
            const move = (x: number) => box.position.set([x, 0, 0]);

            // no TAA, nobody declares it, the box moves: nothing
            renderer.render_frame();
            move(0.3);
            renderer.render_frame();
            expect(passes(renderer)).not.toContain("velocity");
            expect(renderer.last_frame_dot).not.toContain("velocity");
            expect(frame_had).toBe(false);

            // TAA on, nothing moves: nothing; the box moves: TAA's velocity pass, read by the resolve
            renderer.feature_taa_enabled = true;
            renderer.render_frame();
            renderer.render_frame();
            expect(passes(renderer)).not.toContain("velocity");
            move(0.6);
            renderer.render_frame();
            expect(passes(renderer)).toContain("velocity");
            expect(renderer.last_frame_passes.find((p) => p.name === "velocity")?.culled).toBe(false);
            expect(frame_had, "carried to BeforePresent").toBe(true);
            // TAA told not to use it: nothing, even while the box moves
            renderer.taa_uses_velocity = false;
            move(0.9);
            renderer.render_frame();
            expect(passes(renderer)).not.toContain("velocity");
            expect(renderer.last_frame_dot).not.toContain("velocity");

            // a declaring extension at AfterGBuffer: made with nothing moving and TAA off
            renderer.feature_taa_enabled = false;
            const probe = renderer.add_extension(new TextureProbe("probe", FramePhase.AfterGBuffer, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            expect(passes(renderer).filter((p) => p === "velocity")).toHaveLength(1);
            renderer.remove_extension(probe);
            renderer.render_frame();
            expect(passes(renderer)).not.toContain("velocity");
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("with TAA's jitter on a still scene the velocity is ~0 everywhere (the jitter is taken out)", async () => {
        await with_gpu_device(async (device) => {
            const { scene: s } = scene();
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, resolution_scale: 1 });
            renderer.view.camera.position.set([0, 0, 5]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            let worst = 0;
            for (let i = 0; i < 4; i++) {
                renderer.render_frame();
                const v = await read_texture(device, probe.texture!);
                if (i === 0) continue; // the first frame has no previous jitter
                for (let k = 0; k < v.data.length; k++) worst = Math.max(worst, Math.abs(v.data[k]));
            }
            // one frame's jitter step is up to a pixel, 1/64 = 0.016 in uv
            console.log(`[velocity] still scene under TAA jitter: largest |velocity| component ${worst.toExponential(2)}`);
            expect(worst).toBeLessThan(1e-3);
            renderer.destroy();
        });
    });

    it("a panning camera: the sky and the still backdrop move by the camera's reprojection", async () => {
        await with_gpu_device(async (device) => {
            const { scene: s } = scene();
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false });
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 5]);
            camera.target.set([0, 0, 0]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            const ground_before = uv_of(renderer, -1, -1.5, -1.9);
            // a turn and a step sideways: the sky moves with the turn, the backdrop with both
            camera.position.set([0.3, 0, 5]);
            camera.target.set([0.8, 0, 0]);
            renderer.render_frame();
            const ground_after = uv_of(renderer, -1, -1.5, -1.9);
            // the sky pixel at uv (0.1, 0.1) is the far plane there, and was at its projection by last frame's camera
            const sky_after: [number, number] = [(Math.floor(0.1 * SIZE) + 0.5) / SIZE, (Math.floor(0.1 * SIZE) + 0.5) / SIZE];
            const far = vec4.transformMat4(vec4.create(), [sky_after[0] * 2 - 1, 1 - sky_after[1] * 2, 1, 1], camera.inverse_view_projection);
            const prev = vec4.transformMat4(vec4.create(), far, camera.previous_view_projection);
            const sky_before: [number, number] = [(prev[0] / prev[3]) * 0.5 + 0.5, 0.5 - (prev[1] / prev[3]) * 0.5];
            const v = await read_texture(device, probe.texture!);
            const at = (uv: [number, number]): [number, number] => {
                const i = Math.floor(uv[1] * SIZE) * SIZE + Math.floor(uv[0] * SIZE);
                return [v.data[i * v.channels], v.data[i * v.channels + 1]];
            };
            const sky = at(sky_after);
            const ground = at(ground_after);
            console.log(
                `[velocity] camera pan: sky (${sky[0].toFixed(4)}, ${sky[1].toFixed(4)}) expected ${(sky_after[0] - sky_before[0]).toFixed(4)}; ` +
                    `backdrop (${ground[0].toFixed(4)}, ${ground[1].toFixed(4)}) expected ${(ground_after[0] - ground_before[0]).toFixed(4)}`,
            );
            expect(Math.abs(sky[0] - (sky_after[0] - sky_before[0]))).toBeLessThan(1e-3);
            expect(Math.abs(sky[1] - (sky_after[1] - sky_before[1]))).toBeLessThan(1e-3);
            expect(Math.abs(sky[0])).toBeGreaterThan(0.02);
            expect(Math.abs(ground[0] - (ground_after[0] - ground_before[0]))).toBeLessThan(2e-3);
            expect(Math.abs(ground[0])).toBeGreaterThan(0.02);
            renderer.destroy();
        });
    });

    it("frozen still meshes are left to the full-screen pass (camera motion alone); a frozen mesh moved by changed() is drawn with its motion", async () => {
        await with_gpu_device(async (device) => {
            const { scene: s, box } = scene();
            const backdrop = s.meshes[0];
            backdrop.frozen = true;
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false });
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 5]);
            camera.target.set([0, 0, 0]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            const at = async (uv: [number, number]): Promise<[number, number]> => {
                const v = await read_texture(device, probe.texture!);
                const i = Math.floor(uv[1] * SIZE) * SIZE + Math.floor(uv[0] * SIZE);
                return [v.data[i * v.channels], v.data[i * v.channels + 1]];
            };
            renderer.render_frame();
            renderer.render_frame();
            // the camera pans and the live box moves: the frozen backdrop is not drawn, its pixels reproject
            const before = uv_of(renderer, -1, -1.5, -1.9);
            camera.position.set([0.3, 0, 5]);
            camera.target.set([0.8, 0, 0]);
            box.position[1] = 0.2;
            renderer.render_frame();
            expect(renderer.gbuffer_draw_list.still_runs, "the backdrop's run is left out").toBe(1);
            const after = uv_of(renderer, -1, -1.5, -1.9);
            const panned = await at(after);
            expect(Math.abs(panned[0] - (after[0] - before[0]))).toBeLessThan(2e-3);
            expect(Math.abs(panned[0])).toBeGreaterThan(0.02);
            // the camera still, the frozen backdrop moved by changed(): drawn, with its own motion
            renderer.render_frame();
            const from = uv_of(renderer, -1, -1.5, -1.9);
            backdrop.position[0] += 0.5;
            backdrop.changed();
            renderer.render_frame();
            expect(renderer.gbuffer_draw_list.still_runs, "nothing is known still").toBe(0);
            const to = uv_of(renderer, -0.5, -1.5, -1.9);
            const moved = await at(to);
            expect(Math.abs(moved[0] - (to[0] - from[0])), `backdrop motion ${moved[0]} against ${to[0] - from[0]}`).toBeLessThan(2e-3);
            expect(moved[0]).toBeGreaterThan(0.02);
            renderer.destroy();
        });
    });

    it("with every mesh known still, the compute path makes the still world alone (no mesh pass); the raster path one pass", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const { scene: s } = scene();
            for (const mesh of s.meshes) mesh.frozen = true;
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            renderer.capture_pass_list = true;
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 5]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            renderer.render_frame();
            const before = uv_of(renderer, -1, -1.5, -1.9);
            camera.position.set([0.3, 0, 5]);
            renderer.render_frame();
            const names = renderer.last_frame_passes.map((p) => p.name);
            expect(names.filter((n) => n === "velocity" || n === "velocity / still")).toEqual(path === "compute" ? ["velocity / still"] : ["velocity"]);
            const after = uv_of(renderer, -1, -1.5, -1.9);
            const v = await read_texture(device, probe.texture!);
            const i = Math.floor(after[1] * SIZE) * SIZE + Math.floor(after[0] * SIZE);
            expect(Math.abs(v.data[i * v.channels] - (after[0] - before[0]))).toBeLessThan(2e-3);
            expect(Math.abs(v.data[i * v.channels])).toBeGreaterThan(0.01);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("the motion draws replayed from bundles follow the runs: a mesh of a new geometry joins and reads its motion, a frozen one moved again after a pause too", async () => {
        await with_gpu_device(async (device) => {
            const { scene: s, box } = scene();
            const backdrop = s.meshes[0];
            backdrop.frozen = true;
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false });
            expect(renderer.gbuffer_bundles).toBe(true);
            renderer.view.camera.position.set([0, 0, 5]);
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            const at = async (uv: [number, number]): Promise<[number, number]> => {
                const v = await read_texture(device, probe.texture!);
                const i = Math.floor(uv[1] * SIZE) * SIZE + Math.floor(uv[0] * SIZE);
                return [v.data[i * v.channels], v.data[i * v.channels + 1]];
            };
            // the box moves every frame: the bundle of its run is recorded and replayed
            for (let i = 0; i < 3; i++) {
                box.position[0] = -0.4 + 0.05 * i;
                renderer.render_frame();
            }
            // a long slab of a new geometry joins (a new run), then moves up; read near its right end, past where a
            // unit box would reach (what a stale draw of the old runs would draw in its slot)
            const slab = s.add(new Mesh(make_box_geometry(2, 0.3, 0.3), new StandardMaterial({ base_color: [0.2, 0.2, 0.9, 1] })));
            slab.position.set([0.6, 0.9, 0]);
            box.position[0] = -0.25;
            renderer.render_frame();
            const from = uv_of(renderer, 1.45, 0.9, 0.15);
            slab.position[1] = 1.1;
            box.position[0] = -0.2;
            renderer.render_frame();
            const to = uv_of(renderer, 1.45, 1.1, 0.15);
            const slab_motion = await at(to);
            expect(Math.abs(slab_motion[1] - (to[1] - from[1])), `the new slab's motion ${slab_motion[1]} against ${to[1] - from[1]}`).toBeLessThan(2e-3);
            expect(Math.abs(slab_motion[1])).toBeGreaterThan(0.02);
            // the frozen backdrop moved twice, with still frames between: its motion each time
            for (const dx of [0.3, 0.3]) {
                renderer.render_frame();
                renderer.render_frame();
                const before = uv_of(renderer, -1, -1.5, -1.9);
                backdrop.position[0] += dx;
                backdrop.changed();
                renderer.render_frame();
                const after = uv_of(renderer, -1 + dx, -1.5, -1.9);
                const moved = await at(after);
                expect(Math.abs(moved[0] - (after[0] - before[0])), `backdrop motion ${moved[0]} against ${after[0] - before[0]}`).toBeLessThan(2e-3);
            }
            renderer.destroy();
        });
    });

    it("a surface an AfterGBuffer extension draws into the depth reprojects as a still one (velocity made after it)", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), feature_taa_enabled: false, on_error: (e) => errors.push(e) });
            const camera = renderer.view.camera;
            camera.position.set([0, 0, 5]);
            renderer.add_extension(new DepthPainter());
            const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
            renderer.render_frame();
            camera.position.set([0.5, 0, 5]);
            camera.target.set([0.5, 0, 0]);
            renderer.render_frame();
            const v = await read_texture(device, probe.texture!);
            // the pixel at (8, 32): its painted depth, through this frame's inverse and last frame's camera
            const uv = [8.5 / SIZE, 32.5 / SIZE];
            const world = vec4.transformMat4(vec4.create(), [uv[0] * 2 - 1, 1 - uv[1] * 2, DEPTH, 1], camera.inverse_view_projection);
            const prev = vec4.transformMat4(vec4.create(), world, camera.previous_view_projection);
            const expected = uv[0] - ((prev[0] / prev[3]) * 0.5 + 0.5);
            const got = v.data[(32 * SIZE + 8) * v.channels];
            const sky = v.data[(32 * SIZE + 56) * v.channels];
            console.log(`[velocity] painted surface: ${got.toFixed(4)} expected ${expected.toFixed(4)}; sky ${sky.toFixed(4)}`);
            expect(Math.abs(got - expected)).toBeLessThan(1e-3);
            expect(Math.abs(got - sky), "not the sky's motion").toBeGreaterThan(0.01);
            expect(errors).toEqual([]);
            renderer.destroy();
        });
    });

    it("get before AfterGBuffer names where it exists; requiring it at FrameStart is refused", async () => {
        await with_gpu_device(async (device) => {
            const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE) });
            let message = "";
            renderer.add_extension(
                new TextureProbe("early looker", FramePhase.FrameStart, [], (f) => {
                    try {
                        f.get(Velocity);
                    } catch (error) {
                        message = (error as Error).message;
                    }
                    return null;
                }),
            );
            renderer.render_frame();
            expect(message).toContain("Velocity is not carried at FrameStart; it is carried at AfterGBuffer");
            expect(() => renderer.add_extension(new TextureProbe("early", FramePhase.FrameStart, [Velocity], () => null))).toThrow(
                "requires Velocity at FrameStart, but Velocity is made only at AfterGBuffer",
            );
            renderer.destroy();
        });
    });
});

describe("Velocity on the compute and raster paths", () => {
    it("are the same texture: a turning, moving camera over a moving box, pixel for pixel within half-float precision", async () => {
        await with_gpu_device(async (device) => {
            const errors: Error[] = [];
            const pictures: Float32Array[] = [];
            for (const path of ["raster", "compute"] as const) {
                const { scene: s, box } = scene();
                const renderer = new Renderer({ device, fullscreen_paths: path, target: new TextureRenderTarget(SIZE, SIZE), scene: s, feature_taa_enabled: false, on_error: (e) => errors.push(e) });
                const camera = renderer.view.camera;
                camera.position.set([0, 0.5, 5]);
                camera.target.set([0, 0, 0]);
                const probe = renderer.add_extension(new TextureProbe("velocity probe", FramePhase.AfterTransparency, [Velocity], (f) => f.get(Velocity).velocity));
                renderer.render_frame();
                camera.position.set([0.4, 0.8, 4.6]);
                camera.target.set([0.5, -0.2, 0]);
                box.position.set([-0.1, 0.2, 0.3]);
                renderer.render_frame();
                const v = await read_texture(device, probe.texture!);
                pictures.push(Float32Array.from({ length: SIZE * SIZE * 2 }, (_, k) => v.data[Math.floor(k / 2) * v.channels + (k % 2)]));
                renderer.destroy();
            }
            const [raster, compute] = pictures;
            let worst = 0;
            let largest = 0;
            for (let k = 0; k < raster.length; k++) {
                worst = Math.max(worst, Math.abs(raster[k] - compute[k]));
                largest = Math.max(largest, Math.abs(raster[k]));
            }
            // the motion field is busy (the camera turns): a half-pixel slip of the reprojection would show
            expect(largest).toBeGreaterThan(0.05);
            expect(worst).toBeLessThan(2e-4);
            expect(errors).toEqual([]);
        });
    });
});

// DamagedHelmet (the PBR reference: base colour, metallic-roughness, normal, occlusion and emissive maps) drawn
// by the renderer with the material make_standard_material makes, each map against the picture without it.
import { describe, expect, it } from "vitest";
import { load_gltf } from "../../../engine/assets/load_gltf.js";
import { make_standard_material } from "../../../engine/assets/make_standard_material.js";
import type { Model } from "../../../engine/assets/Model.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../shade/renderer/extension/GBufferTextures.js";
import { SceneColor } from "../../../shade/renderer/extension/SceneColor.js";
import { ExtractExtension } from "../../../shade/renderer/extract/ExtractExtension.js";
import { Renderer } from "../../../shade/renderer/Renderer.js";
import { Mesh } from "../../../shade/renderer/scene/Mesh.js";
import { Scene } from "../../../shade/renderer/scene/Scene.js";
import type { StandardMaterial } from "../../../shade/renderer/scene/StandardMaterial.js";
import { TextureRenderTarget } from "../../../shade/renderer/target/TextureRenderTarget.js";
import { read_texture, with_gpu_device, write_readback_png, type TextureReadback } from "../../harness/index.js";
import { HELMET } from "./asset_files.js";

const SIZE = 64;

interface Lighting {
    sun: number;
    ambient: number;
    /** A close-up of the helmet's metal frame (its maps' detail; the visor's glass is smooth) instead of the whole helmet. */
    close?: boolean;
}

/** Luminance of the lit scene colour per pixel, NaN where the helmet is not (G-buffer albedo alpha 0). */
async function draw(device: GPUDevice, model: Model, change: (m: StandardMaterial) => void, lighting: Lighting, png?: string): Promise<Float32Array> {
    const scene = new Scene();
    scene.sun.intensity = lighting.sun;
    scene.sun.direction.set([0.5, -0.6, -1]);
    scene.ambient.set([lighting.ambient, lighting.ambient, lighting.ambient]);
    const material = make_standard_material(model.materials[0], "helmet", model.textures);
    change(material);
    const mesh = scene.add(new Mesh(model.meshes[0].primitives[0].geometry, material));
    mesh.rotation.set(model.nodes[0].rotation);
    const renderer = new Renderer({ device, target: new TextureRenderTarget(SIZE, SIZE), scene, feature_taa_enabled: false });
    renderer.view.camera.position.set(lighting.close === true ? [1.9, 1.2, 2.6] : [0.6, 0.3, 3.4]);
    renderer.view.camera.target.set(lighting.close === true ? [0.75, 0.45, 0.35] : [0, 0, 0]);
    renderer.view.camera.fov_y = lighting.close === true ? Math.PI / 12 : Math.PI / 4;
    const lit = renderer.add_extension(new ExtractExtension("lit", FramePhase.AfterLighting, (f) => f.get(SceneColor).color));
    const albedo = renderer.add_extension(new ExtractExtension("albedo", FramePhase.AfterGBuffer, (f) => f.get(GBufferTextures).albedo));
    renderer.render_frame();
    const color = await read_texture(device, lit.texture!);
    const coverage = await read_texture(device, albedo.texture!);
    renderer.destroy();
    if (png !== undefined) write_readback_png(color, png);
    return luminance(color, coverage);
}

function luminance(color: TextureReadback, coverage: TextureReadback): Float32Array {
    const out = new Float32Array(SIZE * SIZE);
    for (let i = 0; i < out.length; i++) {
        const c = color.data;
        out[i] = coverage.data[i * 4 + 3] === 0 ? Number.NaN : 0.2126 * c[i * 4] + 0.7152 * c[i * 4 + 1] + 0.0722 * c[i * 4 + 2];
    }
    return out;
}

function covered(values: Float32Array): number[] {
    return [...values].filter((v) => !Number.isNaN(v));
}

describe("DamagedHelmet on Dawn", () => {
    it("its normal map changes the shading, its emissive parts glow in the dark, its occlusion darkens the crevices", async () => {
        await with_gpu_device(async (device) => {
            const model = await load_gltf(HELMET, { device });
            try {
                const keep = () => {};
                const no_emission = (m: StandardMaterial) => m.emissive.fill(0);

                // normal map: the sun's diffuse shading moves pixel by pixel (the helmet made a rough dielectric:
                // its metal shows little but highlights without an environment to reflect)
                // (at 64x64 the whole helmet samples the maps' small mips, where the normals average out flat)
                const sunlit = { sun: 3, ambient: 0.05, close: true };
                const diffuse = (m: StandardMaterial) => {
                    no_emission(m);
                    m.metallic_roughness_texture = null;
                    m.metalness = 0;
                    m.roughness = 1;
                };
                const mapped = await draw(device, model, diffuse, sunlit, "helmet_sunlit");
                const flat = await draw(device, model, (m) => ((m.normal_texture = null), diffuse(m)), sunlit, "helmet_sunlit_no_normal_map");
                const patch = covered(mapped).length;
                expect(patch, "the helmet fills most of the close-up").toBeGreaterThan(SIZE * SIZE * 0.8);
                let changed = 0;
                let difference = 0;
                const pixels = patch;
                for (let i = 0; i < mapped.length; i++) {
                    if (Number.isNaN(mapped[i])) continue;
                    const d = Math.abs(mapped[i] - flat[i]);
                    difference += d;
                    if (d > 0.05 * Math.max(flat[i], 0.05)) changed++;
                }
                const mean = covered(flat).reduce((a, b) => a + b, 0) / pixels;
                console.log(`[helmet] normal map: ${changed} of ${pixels} pixels changed by over 5%, mean difference ${(difference / pixels).toFixed(4)} (mean ${mean.toFixed(4)})`);
                expect(changed).toBeGreaterThan(pixels * 0.08);
                expect(difference / pixels).toBeGreaterThan(0.02 * mean);

                const whole = covered(await draw(device, model, no_emission, { sun: 3, ambient: 0.05 }, "helmet_whole")).length;
                expect(whole, "the helmet covers a good part of the wide view").toBeGreaterThan(SIZE * SIZE * 0.25);

                // emissive: in the dark only the emissive parts show, and only some of the helmet
                const dark = { sun: 0, ambient: 0 };
                const glowing = covered(await draw(device, model, keep, dark, "helmet_dark")).filter((v) => v > 0.05).length;
                const unlit = covered(await draw(device, model, no_emission, dark)).filter((v) => v > 0.0001).length;
                console.log(`[helmet] in the dark: ${glowing} of ${whole} pixels glow; ${unlit} without emission`);
                expect(unlit).toBe(0);
                expect(glowing).toBeGreaterThan(10);
                expect(glowing).toBeLessThan(whole * 0.5);

                // occlusion: ambient light only; never brighter with it, and the crevices much darker
                const ambient = { sun: 0, ambient: 0.5 };
                const occluded = await draw(device, model, no_emission, ambient, "helmet_ambient");
                const open = await draw(device, model, (m) => ((m.occlusion_texture = null), no_emission(m)), ambient, "helmet_ambient_no_occlusion");
                let brighter = 0;
                let darker = 0;
                for (let i = 0; i < open.length; i++) {
                    if (Number.isNaN(open[i]) || open[i] < 0.01) continue;
                    if (occluded[i] > open[i] * 1.02 + 1e-4) brighter++;
                    if (occluded[i] < open[i] * 0.7) darker++;
                }
                console.log(`[helmet] occlusion: ${darker} of ${whole} pixels over 30% darker, ${brighter} brighter`);
                expect(brighter).toBe(0);
                expect(darker).toBeGreaterThan(whole * 0.015);
            } finally {
                model.destroy();
            }
        });
    });
});

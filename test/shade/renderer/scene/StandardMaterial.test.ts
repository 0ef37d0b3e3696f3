// StandardMaterial's texture slots (device-independent: the textures are stand-in objects, never drawn): the
// bound and uv-set-1 bits the draw list reads follow every assignment, and a slot refuses what is not a texture.
import { describe, expect, it } from "vitest";
import { MaterialTexture } from "../../../../shade/renderer/scene/MaterialTexture.js";
import { StandardMaterial } from "../../../../shade/renderer/scene/StandardMaterial.js";

// a stand-in for a GPUTexture: the material only keeps it
const texture = { label: "stand-in texture" } as unknown as GPUTexture;

describe("StandardMaterial texture slots", () => {
    it("texture_slots_bound and texture_slots_uv1 follow each slot's assignments, from the spec and after", () => {
        const material = new StandardMaterial({ normal_texture: texture, emissive_texture: new MaterialTexture(texture, { uv_set: 1 }) });
        expect(material.texture_slots_bound).toBe(4 | 16);
        expect(material.texture_slots_uv1).toBe(16);
        material.base_color_texture = new MaterialTexture(texture, { uv_set: 1 });
        material.occlusion_texture = new MaterialTexture(texture, { uv_set: 0 });
        expect(material.texture_slots_bound).toBe(1 | 4 | 8 | 16);
        expect(material.texture_slots_uv1).toBe(1 | 16);
        material.emissive_texture = texture;
        material.base_color_texture = null;
        material.metallic_roughness_texture = new MaterialTexture(texture, { uv_set: 1 });
        expect(material.texture_slots_bound).toBe(2 | 4 | 8 | 16);
        expect(material.texture_slots_uv1).toBe(2);
        material.metallic_roughness_texture = null;
        material.normal_texture = null;
        material.occlusion_texture = null;
        material.emissive_texture = null;
        expect([material.texture_slots_bound, material.texture_slots_uv1]).toEqual([0, 0]);
        expect(material.base_color_texture).toBe(null);
    });

    it("a slot given undefined or a number fails naming the material and the slot, and keeps what it held", () => {
        const material = new StandardMaterial({ label: "rock", base_color_texture: texture });
        expect(() => {
            material.base_color_texture = undefined as unknown as null;
        }).toThrow("StandardMaterial 'rock': base_color_texture is a GPUTexture, a MaterialTexture or null, got undefined");
        expect(() => {
            material.normal_texture = 3 as unknown as null;
        }).toThrow("StandardMaterial 'rock': normal_texture is a GPUTexture, a MaterialTexture or null, got 3");
        expect(material.base_color_texture).toBe(texture);
        expect(material.texture_slots_bound).toBe(1);
    });
});

import { MaterialTexture, type MaterialTextureSlot } from "../scene/MaterialTexture.js";
import type { StandardMaterial } from "../scene/StandardMaterial.js";
import { MATERIAL_SLOTS } from "./surface_wgsl.js";

interface MaterialEntry {
    /** The slots the group was made from (bare textures or `MaterialTexture`s; immutable, compared by identity). */
    readonly slots: MaterialTextureSlot[];
    group: GPUBindGroup;
}

const SLOT_COUNT = MATERIAL_SLOTS.length;

/**
 * Per-device bind groups for materials (group 1: each of the five texture slots of `SURFACE_WGSL` with its
 * sampler). An empty slot binds a 1x1 white texture; every material with no texture bound shares one group (its
 * values travel per object), so untextured materials cost no bind group switch. Rebuilt when a slot's texture
 * changes; samplers are shared by their settings.
 */
export class MaterialBindings {
    readonly layout: GPUBindGroupLayout;
    readonly #device: GPUDevice;
    readonly #samplers = new Map<string, GPUSampler>();
    readonly #white: GPUTexture;
    readonly #entries = new WeakMap<StandardMaterial, MaterialEntry>();
    readonly #entries_list: GPUBindGroupEntry[] = [];
    #untextured: GPUBindGroup | null = null;

    constructor(device: GPUDevice) {
        this.#device = device;
        const entries: GPUBindGroupLayoutEntry[] = [];
        for (let i = 0; i < SLOT_COUNT; i++) {
            entries.push({ binding: 2 * i, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } });
            entries.push({ binding: 2 * i + 1, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } });
        }
        this.layout = device.createBindGroupLayout({ label: "material bind group layout", entries });
        this.#white = device.createTexture({
            label: "white texture",
            size: [1, 1],
            format: "rgba8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        device.queue.writeTexture({ texture: this.#white }, new Uint8Array([255, 255, 255, 255]), { bytesPerRow: 4 }, [1, 1]);
    }

    group(material: StandardMaterial): GPUBindGroup {
        if (material.texture_slots_bound === 0) return (this.#untextured ??= this.#make(material, "untextured materials bind group"));
        const entry = this.#entries.get(material);
        if (entry !== undefined && same_slots(entry.slots, material)) return entry.group;
        return this.#make(material, `${material.label} bind group`);
    }

    #make(material: StandardMaterial, label: string): GPUBindGroup {
        const slots: MaterialTextureSlot[] = [];
        const entries = this.#entries_list;
        entries.length = 0;
        for (let i = 0; i < SLOT_COUNT; i++) {
            const slot = material[MATERIAL_SLOTS[i]];
            slots.push(slot);
            const texture = slot === null ? this.#white : slot instanceof MaterialTexture ? slot.texture : slot;
            entries.push({ binding: 2 * i, resource: texture.createView({ label: `${material.label} ${MATERIAL_SLOTS[i]}` }) });
            entries.push({ binding: 2 * i + 1, resource: this.#sampler(slot) });
        }
        const group = this.#device.createBindGroup({ label, layout: this.layout, entries });
        if (material.texture_slots_bound !== 0) this.#entries.set(material, { slots, group });
        return group;
    }

    #sampler(slot: MaterialTextureSlot): GPUSampler {
        const s = slot instanceof MaterialTexture ? slot.sampler : null;
        const key = s === null ? "default" : `${s.address_mode_u} ${s.address_mode_v} ${s.mag_filter} ${s.min_filter} ${s.mipmap_filter} ${s.mipmaps}`;
        let sampler = this.#samplers.get(key);
        if (sampler === undefined) {
            sampler = this.#device.createSampler({
                label: `material sampler (${key})`,
                addressModeU: s?.address_mode_u ?? "repeat",
                addressModeV: s?.address_mode_v ?? "repeat",
                magFilter: s?.mag_filter ?? "linear",
                minFilter: s?.min_filter ?? "linear",
                mipmapFilter: s?.mipmap_filter ?? "linear",
                // glTF's NEAREST and LINEAR minification read the base level only
                lodMaxClamp: s === null || s.mipmaps ? 32 : 0,
            });
            this.#samplers.set(key, sampler);
        }
        return sampler;
    }

    destroy(): void {
        this.#white.destroy();
    }
}


function same_slots(slots: readonly MaterialTextureSlot[], material: StandardMaterial): boolean {
    for (let i = 0; i < SLOT_COUNT; i++) if (slots[i] !== material[MATERIAL_SLOTS[i]]) return false;
    return true;
}

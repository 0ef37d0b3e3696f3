import type { StandardMaterial } from "../scene/StandardMaterial.js";

interface MaterialEntry {
    texture: GPUTexture | null;
    group: GPUBindGroup;
}

/**
 * Per-device bind groups for materials (group 1: sampler, base-colour texture). A material without a texture
 * binds a 1x1 white one. Rebuilt when the material's texture changes.
 */
export class MaterialBindings {
    readonly layout: GPUBindGroupLayout;
    readonly #device: GPUDevice;
    readonly #sampler: GPUSampler;
    readonly #white: GPUTexture;
    readonly #entries = new WeakMap<StandardMaterial, MaterialEntry>();

    constructor(device: GPUDevice) {
        this.#device = device;
        this.layout = device.createBindGroupLayout({
            label: "material bind group layout",
            entries: [
                { binding: 0, visibility: GPUShaderStage.FRAGMENT, sampler: { type: "filtering" } },
                { binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: "float" } },
            ],
        });
        this.#sampler = device.createSampler({
            label: "material sampler",
            magFilter: "linear",
            minFilter: "linear",
            mipmapFilter: "linear",
            addressModeU: "repeat",
            addressModeV: "repeat",
            maxAnisotropy: 1,
        });
        this.#white = device.createTexture({
            label: "white texture",
            size: [1, 1],
            format: "rgba8unorm",
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
        });
        device.queue.writeTexture({ texture: this.#white }, new Uint8Array([255, 255, 255, 255]), { bytesPerRow: 4 }, [1, 1]);
    }

    group(material: StandardMaterial): GPUBindGroup {
        const entry = this.#entries.get(material);
        if (entry !== undefined && entry.texture === material.base_color_texture) return entry.group;
        const texture = material.base_color_texture;
        const group = this.#device.createBindGroup({
            label: `${material.label} bind group`,
            layout: this.layout,
            entries: [
                { binding: 0, resource: this.#sampler },
                { binding: 1, resource: (texture ?? this.#white).createView({ label: `${material.label} base colour` }) },
            ],
        });
        this.#entries.set(material, { texture, group });
        return group;
    }

    destroy(): void {
        this.#white.destroy();
    }
}

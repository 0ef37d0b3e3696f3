import type { TextureAllocator } from "./TextureAllocator.js";
import type { TextureResourceDescriptor } from "./TextureResourceDescriptor.js";

/** Creates real GPU textures for the transient pool, one default view each (created once, reused). */
export class GPUTextureAllocator implements TextureAllocator<GPUTexture, GPUTextureView> {
    readonly device: GPUDevice;
    readonly #views = new WeakMap<GPUTexture, GPUTextureView>();
    readonly #view_descriptor: GPUTextureViewDescriptor = { label: "" };

    readonly max_texture_dimension: number | undefined;

    constructor(device: GPUDevice) {
        this.device = device;
        this.max_texture_dimension = device.limits?.maxTextureDimension2D;
    }

    create(descriptor: TextureResourceDescriptor, label: string): GPUTexture {
        const texture = this.device.createTexture({
            label,
            size: { width: descriptor.width, height: descriptor.height },
            format: descriptor.format,
            usage: descriptor.usage,
        });
        this.#views.set(texture, texture.createView({ label: `${label} view` }));
        return texture;
    }

    view(texture: GPUTexture, label?: string): GPUTextureView {
        let view = this.#views.get(texture);
        if (view === undefined) {
            // Imported textures arrive without a cached view; the canvas brings a new one every frame, so the
            // label is the caller's name (no string built from texture.label) and the descriptor is reused.
            const descriptor = this.#view_descriptor;
            descriptor.label = label ?? "imported texture view";
            view = texture.createView(descriptor);
            this.#views.set(texture, view);
        }
        return view;
    }

    destroy(texture: GPUTexture): void {
        this.#views.delete(texture);
        texture.destroy();
    }
}

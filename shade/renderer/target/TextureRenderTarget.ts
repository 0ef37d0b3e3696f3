import { is_storage_format } from "../fullscreen/FullscreenPath.js";
import type { RenderTarget } from "./RenderTarget.js";

/** An offscreen texture to present into: tests, thumbnails, headless rendering. Readable with COPY_SRC. */
export class TextureRenderTarget implements RenderTarget {
    readonly format: GPUTextureFormat;
    #width: number;
    #height: number;
    #device: GPUDevice | null = null;
    #texture: GPUTexture | null = null;

    constructor(width: number, height: number, format: GPUTextureFormat = "rgba8unorm") {
        check_size(width, height);
        this.#width = width;
        this.#height = height;
        this.format = format;
    }

    get width(): number {
        return this.#width;
    }

    get height(): number {
        return this.#height;
    }

    /** The texture presented into last (null before the first configure). */
    get texture(): GPUTexture | null {
        return this.#texture;
    }

    /** Changes the output size; the next frame renders at it. */
    resize(width: number, height: number): void {
        check_size(width, height);
        this.#width = width;
        this.#height = height;
        if (this.#device !== null) this.configure(this.#device);
    }

    configure(device: GPUDevice): void {
        this.#texture?.destroy();
        this.#texture = null;
        this.#device = device;
        if (this.#width === 0 || this.#height === 0) return; // nothing to draw into until resized
        this.#texture = device.createTexture({
            label: "offscreen render target",
            size: { width: this.#width, height: this.#height },
            format: this.format,
            usage:
                GPUTextureUsage.RENDER_ATTACHMENT |
                GPUTextureUsage.TEXTURE_BINDING |
                GPUTextureUsage.COPY_SRC |
                GPUTextureUsage.COPY_DST |
                // the tonemap writes it from compute where that is the faster path
                (is_storage_format(device, this.format) ? GPUTextureUsage.STORAGE_BINDING : 0),
        });
    }

    is_drawable(): boolean {
        return this.#width > 0 && this.#height > 0 && this.#texture !== null;
    }

    acquire(): GPUTexture {
        if (this.#texture === null) throw new Error("TextureRenderTarget.acquire before configure(device)");
        return this.#texture;
    }

    release(): void {
        this.#texture?.destroy();
        this.#texture = null;
        this.#device = null;
    }
}

function check_size(width: number, height: number): void {
    if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 0 && height >= 0)) {
        throw new RangeError(`TextureRenderTarget: size must be whole non-negative pixels, got ${width}x${height}`);
    }
}

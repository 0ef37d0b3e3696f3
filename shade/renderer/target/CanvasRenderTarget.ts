import type { RenderTarget } from "./RenderTarget.js";

/** A WebGPU canvas. Its drawing-buffer size (canvas.width/height) is the output resolution. */
export class CanvasRenderTarget implements RenderTarget {
    readonly canvas: HTMLCanvasElement | OffscreenCanvas;
    #context: GPUCanvasContext | null = null;
    #format: GPUTextureFormat = "rgba8unorm";

    constructor(canvas: HTMLCanvasElement | OffscreenCanvas) {
        this.canvas = canvas;
    }

    get format(): GPUTextureFormat {
        return this.#format;
    }

    configure(device: GPUDevice): void {
        const context = this.canvas.getContext("webgpu") as GPUCanvasContext | null;
        if (context === null) throw new Error("CanvasRenderTarget: the canvas has no WebGPU context (is WebGPU enabled in this browser?)");
        this.#format = navigator.gpu.getPreferredCanvasFormat();
        context.configure({ device, format: this.#format, alphaMode: "opaque", usage: GPUTextureUsage.RENDER_ATTACHMENT });
        this.#context = context;
    }

    acquire(): GPUTexture {
        if (this.#context === null) throw new Error("CanvasRenderTarget.acquire before configure(device)");
        return this.#context.getCurrentTexture();
    }

    release(): void {
        this.#context?.unconfigure();
        this.#context = null;
    }
}

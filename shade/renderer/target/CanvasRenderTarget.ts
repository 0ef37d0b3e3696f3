import { is_storage_format } from "../fullscreen/FullscreenPath.js";
import type { RenderTarget } from "./RenderTarget.js";

/**
 * A WebGPU canvas. Its drawing-buffer size (canvas.width/height) is the output resolution. With
 * `auto_resize` (the default) an on-page canvas follows its CSS size times the device pixel ratio, checked
 * each frame, so a resized window renders at the new size from its next frame.
 */
export class CanvasRenderTarget implements RenderTarget {
    readonly canvas: HTMLCanvasElement | OffscreenCanvas;
    auto_resize = true;
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
        // storage too where the format allows: the tonemap writes the canvas from compute where that is faster
        const storage = is_storage_format(device, this.#format) ? GPUTextureUsage.STORAGE_BINDING : 0;
        context.configure({ device, format: this.#format, alphaMode: "opaque", usage: GPUTextureUsage.RENDER_ATTACHMENT | storage });
        this.#context = context;
    }

    is_drawable(): boolean {
        const canvas = this.canvas;
        if (this.auto_resize && typeof HTMLCanvasElement !== "undefined" && canvas instanceof HTMLCanvasElement) {
            const ratio = globalThis.devicePixelRatio ?? 1;
            const width = Math.round(canvas.clientWidth * ratio);
            const height = Math.round(canvas.clientHeight * ratio);
            // a collapsed canvas (display: none, a minimised tab) keeps its last size but is not drawn
            if (width === 0 || height === 0) return false;
            if (canvas.width !== width || canvas.height !== height) {
                canvas.width = width;
                canvas.height = height;
            }
        }
        return this.#context !== null && canvas.width > 0 && canvas.height > 0;
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

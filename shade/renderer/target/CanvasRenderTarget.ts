import { is_storage_format } from "../fullscreen/FullscreenPath.js";
import type { RenderTarget } from "./RenderTarget.js";

/**
 * A WebGPU canvas. Its drawing-buffer size (canvas.width/height) is the output resolution. With
 * `auto_resize` (the default) an on-page canvas follows its CSS size times the device pixel ratio: a
 * `ResizeObserver` reports each new layout size, so a resized window renders at the new size from the first frame
 * after the browser laid it out, and no frame reads the layout (`clientWidth` forces one where the page changed).
 */
export class CanvasRenderTarget implements RenderTarget {
    readonly canvas: HTMLCanvasElement | OffscreenCanvas;
    auto_resize = true;
    #context: GPUCanvasContext | null = null;
    #format: GPUTextureFormat = "rgba8unorm";
    #observer: ResizeObserver | null = null;
    // the canvas's CSS size the observer last reported
    #width = 0;
    #height = 0;
    #observed = false;

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
        this.#observe();
    }

    is_drawable(): boolean {
        const canvas = this.canvas;
        if (this.auto_resize && typeof HTMLCanvasElement !== "undefined" && canvas instanceof HTMLCanvasElement) {
            if (!this.#observed || this.#width === 0 || this.#height === 0) {
                // the layout read: until the observer's first report (and in a browser without ResizeObserver), and
                // while it last reported a collapsed canvas (a report from before the page's first layout)
                this.#width = canvas.clientWidth;
                this.#height = canvas.clientHeight;
            }
            const ratio = globalThis.devicePixelRatio ?? 1;
            const width = Math.round(this.#width * ratio);
            const height = Math.round(this.#height * ratio);
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
        this.#observer?.disconnect();
        this.#observer = null;
        this.#observed = false;
        this.#context?.unconfigure();
        this.#context = null;
    }

    // an on-page canvas: its layout size as the observer reports it
    #observe(): void {
        const canvas = this.canvas;
        if (this.#observer !== null || typeof ResizeObserver === "undefined") return;
        if (typeof HTMLCanvasElement === "undefined" || !(canvas instanceof HTMLCanvasElement)) return;
        // the CSS content box, as clientWidth/clientHeight gave it (rounded to whole CSS pixels), times the ratio each
        // frame: a window moved to a screen of another ratio follows without a layout change
        this.#observer = new ResizeObserver((entries) => {
            const entry = entries[entries.length - 1];
            const box = entry.contentBoxSize?.[0];
            this.#width = Math.round(box !== undefined ? box.inlineSize : entry.contentRect.width);
            this.#height = Math.round(box !== undefined ? box.blockSize : entry.contentRect.height);
            this.#observed = true;
        });
        this.#observer.observe(canvas);
    }
}

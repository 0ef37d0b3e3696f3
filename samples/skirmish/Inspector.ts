import type { GraphicsEngine } from "../../engine/GraphicsEngine.js";

function escape(text: string): string {
    return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/**
 * The live graph inspector: the resolved pipeline (`describe()`: each extension with the system that owns it), this frame's passes with the elided ones
 * greyed and GPU milliseconds per pass and per extension when the device times them, and a frame-time line.
 * Refreshes every `every` frames; the renderer captures its pass list only while the inspector is open.
 */
export class Inspector {
    readonly #root: HTMLElement;
    readonly #graphics: GraphicsEngine;
    readonly #times: number[] = [];
    #frames = 0;
    #last = 0;
    every = 20;
    open = true;

    constructor(root: HTMLElement, graphics: GraphicsEngine) {
        this.#root = root;
        this.#graphics = graphics;
    }

    /** Call once per frame after rendering, with the frame's timestamp in ms. */
    frame(now: number): void {
        if (this.#last !== 0) {
            this.#times.push(now - this.#last);
            if (this.#times.length > 120) this.#times.shift();
        }
        this.#last = now;
        const renderer = this.#graphics.renderer;
        if (renderer !== null) renderer.capture_pass_list = this.open;
        if (++this.#frames % this.every !== 0 || renderer === null) return;
        this.#root.hidden = !this.open;
        if (!this.open) return;
        const sorted = [...this.#times].sort((a, b) => a - b);
        const median = sorted.length > 0 ? sorted[sorted.length >> 1] : 0;
        const timer = renderer.timer;
        const gpu = new Map<string, number>();
        if (timer !== null) for (let i = 0; i < timer.timing_count; i++) gpu.set(timer.timings[i].name, timer.timings[i].ms);
        const passes = renderer.last_frame_passes
            .map((p) => {
                const ms = gpu.get(p.name);
                const time = ms !== undefined ? ` <span class="ms">${ms.toFixed(2)} ms</span>` : "";
                return `<li class="${p.culled ? "culled" : ""}">${escape(p.name)}${time}</li>`;
            })
            .join("");
        const pipeline = this.#graphics
            .describe()
            .phases.map((phase) => {
                const names = phase.extensions
                    .map((e) => {
                        // the sum of the extension's timed passes (GPUDynamicMeshRenderer's among them)
                        const ms = timer !== null ? renderer.extension_ms(e.name) : 0;
                        const suspended = renderer.registry.is_suspended(renderer.registry.ordered(phase.phase)[e.position]);
                        const owner = e.owner !== null ? ` <span class="owner">(${escape(e.owner)})</span>` : "";
                        return `<span class="${suspended ? "culled" : ""}">${escape(e.name)}${owner}${ms > 0 ? ` <span class="ms">${ms.toFixed(2)}</span>` : ""}</span>`;
                    })
                    .join(", ");
                return `<li><b>${phase.name}</b> ${names || '<span class="culled">-</span>'}</li>`;
            })
            .join("");
        const fps = median > 0 ? 1000 / median : 0;
        this.#root.innerHTML =
            `<div class="fps">${fps.toFixed(0)} fps · ${median.toFixed(1)} ms · ${renderer.target.format}</div>` +
            `<h2>pipeline</h2><ul>${pipeline}</ul>` +
            `<h2>this frame's graph${timer === null ? " (no GPU timestamps)" : ""}</h2><ol>${passes}</ol>`;
    }
}

import { StaticRunsKey } from "./StaticRunsKey.js";

/** Records a pass's static runs into a bundle encoder, which starts with nothing bound (a function made once, not per frame). */
export type RecordRuns<C> = (context: C, encoder: GPURenderBundleEncoder) => void;

/**
 * One pass's draws of a draw list's static (unskinned) runs, recorded once into a render bundle and replayed while
 * `key` (`StaticRunsKey`, updated by the caller each frame) says nothing they depend on changed; recorded again
 * when it does. One per pass and device.
 */
export class RunBundle {
    readonly key = new StaticRunsKey();
    #bundle: GPURenderBundle | null = null;
    // `[bundle]`, for `executeBundles` without an array per frame
    readonly #list: GPURenderBundle[] = [];
    readonly #descriptor: GPURenderBundleDescriptor;
    #records = 0;

    constructor(label: string) {
        this.#descriptor = { label };
    }

    /** How many times the bundle was recorded. */
    get records(): number {
        return this.#records;
    }

    /**
     * Executes the static runs' bundle in `pass`, recording it first (with `encoder`'s formats) when `changed` (what
     * `key.update` answered this frame) or never recorded. Nothing when the key holds no static run. The pass has
     * nothing bound afterwards.
     */
    execute<C>(device: GPUDevice, pass: GPURenderPassEncoder, changed: boolean, encoder: GPURenderBundleEncoderDescriptor, context: C, record: RecordRuns<C>): void {
        if (this.key.static_count === 0) return;
        if (changed || this.#bundle === null) {
            const bundle_encoder = device.createRenderBundleEncoder(encoder);
            record(context, bundle_encoder);
            this.#bundle = bundle_encoder.finish(this.#descriptor);
            this.#list[0] = this.#bundle;
            this.#records++;
        }
        pass.executeBundles(this.#list);
    }
}

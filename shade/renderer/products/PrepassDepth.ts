import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "../extension/FramePhase.js";
import { FrameProduct } from "./FrameProduct.js";

/**
 * This frame's opaque depth before anything else draws (PlayCanvas's `FRAMERESOURCE_PREPASSDEPTH`): for
 * FrameStart work that needs it, such as occlusion culling or binning lights against the surfaces. Made only in
 * frames where a registered FrameStart extension declares `requires = [PrepassDepth]`: pass "depth prepass"
 * draws the G-buffer's opaque and masked meshes (masked ones discard below their cutoff, as in the G-buffer)
 * depth-only into a `depth32float` target at the internal resolution, before the FrameStart extensions record.
 * The G-buffer then loads it and draws with depth-compare "equal" (no depth write): one surface shaded per pixel,
 * the same picture as without the prepass. That texture goes on as the G-buffer's `ViewTextures.depth` (which
 * AfterGBuffer extensions may draw into); this record is carried at FrameStart only.
 *
 * The draw list is built once, for the prepass: a mesh a FrameStart extension moves, adds or hides shows that
 * change from the next frame on (without a requirer, the G-buffer builds it after FrameStart, as ever).
 */
export class PrepassDepth extends FrameProduct {
    #depth: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase === FramePhase.FrameStart;
    }

    /** The `depth32float` depth of the opaque and masked meshes (cleared to 1, the far plane). */
    get depth(): FrameGraphHandle {
        return this.read(this.#depth, "depth");
    }

    /** @internal the renderer fills it in */
    provide(handle: FrameGraphHandle): void {
        this.#depth = handle;
    }

    override reset_for_reuse(): boolean {
        this.#depth = -1;
        return true;
    }
}

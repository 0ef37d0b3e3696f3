import type { FrameGraphHandle } from "../../device/graph/FrameGraphHandle.js";
import { FramePhase } from "./FramePhase.js";
import { FrameRecord } from "./FrameRecord.js";

/**
 * The five G-buffer targets: in/out at AfterGBuffer, frozen afterwards and readable up to BeforePresent,
 * where it is on the far side of the upscale (a different size from the colour beside it).
 *
 * - `albedo`: base colour and coverage, `rgba8unorm`
 * - `normal`: world normal (xyz) and roughness (w), `rgba16float`
 * - `material`: metalness, flags and material index, `rgba8uint` (integer: cannot be blended)
 * - `object_id`: the object's id for picking and highlight, `r32uint` (integer: cannot be blended)
 * - `emissive`: emitted radiance (rgb, added after lighting) and ambient occlusion (a, multiplies the ambient
 *   and environment light only), `rgba16float`; cleared to (0, 0, 0, 1)
 */
export class GBufferTextures extends FrameRecord {
    #albedo: FrameGraphHandle = -1;
    #normal: FrameGraphHandle = -1;
    #material: FrameGraphHandle = -1;
    #object_id: FrameGraphHandle = -1;
    #emissive: FrameGraphHandle = -1;
    #saved_albedo: FrameGraphHandle = -1;
    #saved_normal: FrameGraphHandle = -1;
    #saved_material: FrameGraphHandle = -1;
    #saved_object_id: FrameGraphHandle = -1;
    #saved_emissive: FrameGraphHandle = -1;

    static override is_present_at(phase: FramePhase): boolean {
        return phase >= FramePhase.AfterGBuffer && phase <= FramePhase.BeforePresent;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.AfterGBuffer;
    }

    get albedo(): FrameGraphHandle {
        return this.read(this.#albedo, "albedo");
    }

    set albedo(handle: FrameGraphHandle) {
        this.#albedo = this.publish(handle, "albedo");
    }

    get normal(): FrameGraphHandle {
        return this.read(this.#normal, "normal");
    }

    set normal(handle: FrameGraphHandle) {
        this.#normal = this.publish(handle, "normal");
    }

    get material(): FrameGraphHandle {
        return this.read(this.#material, "material");
    }

    set material(handle: FrameGraphHandle) {
        this.#material = this.publish(handle, "material");
    }

    get object_id(): FrameGraphHandle {
        return this.read(this.#object_id, "object_id");
    }

    set object_id(handle: FrameGraphHandle) {
        this.#object_id = this.publish(handle, "object_id");
    }

    get emissive(): FrameGraphHandle {
        return this.read(this.#emissive, "emissive");
    }

    set emissive(handle: FrameGraphHandle) {
        this.#emissive = this.publish(handle, "emissive");
    }

    override save_state(): boolean {
        this.#saved_albedo = this.#albedo;
        this.#saved_normal = this.#normal;
        this.#saved_material = this.#material;
        this.#saved_object_id = this.#object_id;
        this.#saved_emissive = this.#emissive;
        return true;
    }

    override restore_state(): void {
        this.#albedo = this.#saved_albedo;
        this.#normal = this.#saved_normal;
        this.#material = this.#saved_material;
        this.#object_id = this.#saved_object_id;
        this.#emissive = this.#saved_emissive;
    }

    override reset_for_reuse(): boolean {
        this.#albedo = -1;
        this.#normal = -1;
        this.#material = -1;
        this.#object_id = -1;
        this.#emissive = -1;
        return true;
    }
}

import { FramePhase } from "../extension/FramePhase.js";
import { FrameRecord } from "../extension/FrameRecord.js";
import type { FrustumCulling } from "./FrustumCulling.js";
import type { MeshDrawList } from "./MeshDrawList.js";
import type { ObjectBuffer } from "./ObjectBuffer.js";

/**
 * The frame's mesh draws, for every pass that draws the scene's meshes: `list` (its opaque runs over object slots,
 * then its blended runs), `objects`, the object data the runs index (`OBJECT_WGSL`'s layout), and `culling`, the
 * G-buffer's visibility pass over them. An extension that draws the meshes again (the sun's shadow map) reads these
 * instead of writing each mesh's data a second time. The list is built by the G-buffer step, after FrameStart's
 * extensions record (they may still change the scene: a material's texture, say): read it in a pass's execute,
 * never in record. There, `objects.upload(device)` returns the storage buffer (the first caller of the frame
 * uploads what changed), and after `culling.update_from(list, geometries)` `culling.runs(device)` the run table's.
 * A slot whose flags (`ids.z`) hold `OBJECT_CASTS_SHADOWS` is a mesh with `cast_shadows`. Carried at every phase, published by the renderer at FrameStart before that phase's extensions
 * record; the list and buffers are the G-buffer step's: read them, never write them.
 */
export class SceneDraws extends FrameRecord {
    #list: MeshDrawList | null = null;
    #objects: ObjectBuffer | null = null;
    #culling: FrustumCulling | null = null;

    static override is_present_at(phase: FramePhase): boolean {
        void phase;
        return true;
    }

    static override is_writable_at(phase: FramePhase): boolean {
        return phase === FramePhase.FrameStart;
    }

    get list(): MeshDrawList {
        return this.read(this.#list, "list")!;
    }

    set list(list: MeshDrawList) {
        this.#list = this.publish(list, "list");
    }

    get objects(): ObjectBuffer {
        return this.read(this.#objects, "objects")!;
    }

    set objects(objects: ObjectBuffer) {
        this.#objects = this.publish(objects, "objects");
    }

    get culling(): FrustumCulling {
        return this.read(this.#culling, "culling")!;
    }

    set culling(culling: FrustumCulling) {
        this.#culling = this.publish(culling, "culling");
    }

    override reset_for_reuse(): boolean {
        this.#list = null;
        this.#objects = null;
        this.#culling = null;
        return true;
    }
}

import { FramePhase } from "../extension/FramePhase.js";
import { FrameRecord } from "../extension/FrameRecord.js";
import type { FrustumCulling } from "./FrustumCulling.js";
import type { MeshDrawList } from "./MeshDrawList.js";
import type { ObjectBuffer } from "./ObjectBuffer.js";

/**
 * The frame's mesh draws, built once before FrameStart's extensions record and read by every pass that draws the
 * scene's meshes: `list` (its opaque runs over object slots, then its blended runs) and `objects`, the object data
 * the runs index (`OBJECT_WGSL`'s layout). An extension that draws the meshes again (the sun's shadow map) reads
 * these instead of writing each mesh's data a second time; in its execute, `objects.upload(device)` returns the
 * storage buffer (the first caller of the frame uploads what changed, later ones get it as is). A slot whose flags
 * (`ids.z`) hold `OBJECT_CASTS_SHADOWS` is a mesh with `cast_shadows`. `culling` is the G-buffer's visibility pass:
 * its run table's GPU copy (`FrustumCulling.runs`) describes the list's opaque runs once that pass has executed
 * (it is added before FrameStart, so a pass of a FrameStart extension executes after it). Carried at every phase; the renderer
 * publishes it at FrameStart before that phase's extensions record. The list and buffer are the G-buffer step's:
 * read them, never write them.
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

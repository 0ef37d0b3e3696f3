import type { FramePassBuilder } from "./FramePassBuilder.js";
import type { FrameGraphResources } from "./FrameGraphResources.js";
import type { FrameExecution } from "./FrameExecution.js";
import { IndexList } from "./IndexList.js";

/** What a pass runs when it survives culling. */
export type FramePassExecute<D> = (data: D, resources: FrameGraphResources, execution: FrameExecution) => void;

/** A pass as the graph keeps it. Pooled: arrays are emptied with `length = 0`, never replaced. */
export class PassNode {
    name = "";
    data: unknown = null;
    execute: FramePassExecute<unknown> | null = null;
    scope = -1;
    side_effect = false;
    ref_count = 0;
    culled = false;
    /** Handles sampled or otherwise read explicitly. */
    readonly reads = new IndexList();
    /** Handles this pass produced (new versions). */
    readonly writes = new IndexList();
    /** Previous versions a write keeps (loads): consumed for ordering and culling, not touchable. */
    readonly loads = new IndexList();
    /** Resources to bring to life before the pass and to return to the pool after it. */
    readonly acquire = new IndexList();
    readonly release = new IndexList();

    builder!: FramePassBuilder;
    /** The builders handed out in turn for this pass index (see FrameGraph.add). */
    readonly builders: FramePassBuilder[] = [];

    reset(name: string, data: unknown, execute: FramePassExecute<unknown>, scope: number): void {
        this.name = name;
        this.data = data;
        this.execute = execute;
        this.scope = scope;
        this.side_effect = false;
        this.ref_count = 0;
        this.culled = false;
        this.reads.clear();
        this.writes.clear();
        this.loads.clear();
        this.acquire.clear();
        this.release.clear();
    }
}

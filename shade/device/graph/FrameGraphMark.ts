/** Where a frame's recording stood: `FrameGraph.mark` fills one, `rollback` returns to it. */
export class FrameGraphMark {
    passes = 0;
    resources = 0;
    handles = 0;
    scopes = 0;
    current_scope = -1;
    scope_depth = 0;
}

/** The six injection points of a frame, in the order they occur. */
export enum FramePhase {
    /** Before any built-in step: uploads, simulations, visibility grids, pass-owned targets. */
    FrameStart = 0,
    /** After the G-buffer: change surfaces (terrain, decals). Internal resolution. */
    AfterGBuffer = 1,
    /** After deferred lighting: add lit content. Internal resolution. */
    AfterLighting = 2,
    /** After forward transparency, before the upscale: the common injection point. Internal resolution. */
    AfterTransparency = 3,
    /** After the upscale, before tonemap + present: full-resolution effects over the finished image. */
    BeforePresent = 4,
    /** Over the presented canvas (HUD, minimap). Output resolution. */
    Overlay = 5,
}

/** Every phase, in order. */
export const FRAME_PHASES: readonly FramePhase[] = [
    FramePhase.FrameStart,
    FramePhase.AfterGBuffer,
    FramePhase.AfterLighting,
    FramePhase.AfterTransparency,
    FramePhase.BeforePresent,
    FramePhase.Overlay,
];

/** The name of a phase, for diagnostics: `frame_phase_name(FramePhase.Overlay) === "Overlay"`. */
export function frame_phase_name(phase: FramePhase): string {
    const name = FramePhase[phase];
    return typeof name === "string" ? name : `<not a FramePhase: ${String(phase)}>`;
}

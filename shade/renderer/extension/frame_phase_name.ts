import { FramePhase } from "./FramePhase.js";

/** The name of a phase, for diagnostics: `frame_phase_name(FramePhase.Overlay) === "Overlay"`. */
export function frame_phase_name(phase: FramePhase): string {
    const name = FramePhase[phase];
    return typeof name === "string" ? name : `<not a FramePhase: ${String(phase)}>`;
}

// `frame_phase_name` lives beside `FramePhase` ("from the same module", as the seed says); kept here too.
export { frame_phase_name } from "./FramePhase.js";

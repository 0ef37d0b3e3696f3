import { define_component } from "../../engine/level/ComponentDescriptor.js";
import { Field } from "../../engine/level/Field.js";
import { Animator } from "./Animator.js";
import { ModelInstanceDescriptor } from "./ModelInstanceDescriptor.js";

/** `Animator` in level files: `{ "Animator": { "clip": "Walk", "speed": 1.2 } }` beside a `Model`. */
export const AnimatorDescriptor = define_component({
    name: "Animator",
    component: Animator,
    requires: [ModelInstanceDescriptor],
    description: "Plays the entity's model's glTF clips (AnimatorSystem)",
    fields: {
        clip: Field.string({ max_length: 256, default: "", description: "the clip playing, by name (\"\": the rest pose)" }),
        speed: Field.number({ default: 1, minimum: -100, maximum: 100, description: "playback rate; negative plays backwards" }),
        loop: Field.boolean({ default: true, description: "wrap at the end (else hold the last pose)" }),
        fade: Field.number({ default: 0.25, minimum: 0, maximum: 60, description: "seconds a change of clip cross-fades over" }),
    },
    write(eid, value) {
        Animator.clip[eid] = value.clip;
    },
    read(eid) {
        return { clip: Animator.clip[eid] };
    },
    reset(eid) {
        Animator.clip[eid] = "";
    },
});

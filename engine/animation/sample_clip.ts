import type { AnimationClip } from "./AnimationClip.js";
import type { AnimationPose } from "./AnimationPose.js";
import { ANIMATION_SCRATCH, SCRATCH_TIME } from "./animation_scratch.js";
import { sample_channel_scratch } from "./sample_channel.js";

/**
 * Writes every channel of `clip` at `time` into `pose` (nodes the clip does not animate keep what the pose holds).
 * A channel for a node the pose lacks, or with a different morph target count, is skipped. Allocates nothing.
 */
export function sample_clip(clip: AnimationClip, time: number, pose: AnimationPose): void {
    ANIMATION_SCRATCH[SCRATCH_TIME] = time;
    sample_clip_scratch(clip, pose);
}

/** @internal `sample_clip` at the time in ANIMATION_SCRATCH[SCRATCH_TIME] (see animation_scratch.ts). */
export function sample_clip_scratch(clip: AnimationClip, pose: AnimationPose): void {
    const channels = clip.channels;
    for (let i = 0; i < channels.length; i++) {
        const channel = channels[i];
        const node = channel.node;
        if (node >= pose.node_count) continue;
        switch (channel.path) {
            case "translation":
                sample_channel_scratch(channel, pose.translation, node * 3);
                break;
            case "rotation":
                sample_channel_scratch(channel, pose.rotation, node * 4);
                break;
            case "scale":
                sample_channel_scratch(channel, pose.scale, node * 3);
                break;
            case "weights":
                if (channel.components === pose.weight_count[node]) sample_channel_scratch(channel, pose.weights, pose.weight_offset[node]);
                break;
        }
    }
}

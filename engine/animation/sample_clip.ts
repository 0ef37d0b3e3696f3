import type { AnimationClip } from "./AnimationClip.js";
import type { AnimationPose } from "./AnimationPose.js";
import { sample_channel } from "./sample_channel.js";

/**
 * Writes every channel of `clip` at `time` into `pose` (nodes the clip does not animate keep what the pose holds).
 * A channel for a node the pose lacks, or with a different morph target count, is skipped. Allocates nothing.
 */
export function sample_clip(clip: AnimationClip, time: number, pose: AnimationPose): void {
    const channels = clip.channels;
    for (let i = 0; i < channels.length; i++) {
        const channel = channels[i];
        const node = channel.node;
        if (node >= pose.node_count) continue;
        switch (channel.path) {
            case "translation":
                sample_channel(channel, time, pose.translation, node * 3);
                break;
            case "rotation":
                sample_channel(channel, time, pose.rotation, node * 4);
                break;
            case "scale":
                sample_channel(channel, time, pose.scale, node * 3);
                break;
            case "weights":
                if (channel.components === pose.weight_count[node]) sample_channel(channel, time, pose.weights, pose.weight_offset[node]);
                break;
        }
    }
}

import type { AnimationChannel } from "./AnimationChannel.js";

/** A named set of channels played together (one glTF animation); its duration is the last keyframe time. */
export class AnimationClip {
    readonly name: string;
    readonly channels: readonly AnimationChannel[];
    readonly duration: number;

    constructor(name: string, channels: readonly AnimationChannel[]) {
        this.name = name;
        this.channels = channels;
        let duration = 0;
        for (const channel of channels) {
            if (channel.times.length > 0) duration = Math.max(duration, channel.times[channel.times.length - 1]);
        }
        this.duration = duration;
    }
}

import type { AnimationClip } from "./AnimationClip.js";
import { AnimationPose } from "./AnimationPose.js";
import { blend_poses } from "./blend_poses.js";
import type { PoseNode } from "./PoseNode.js";
import { sample_clip } from "./sample_clip.js";

/** How a clip plays. */
export interface PlayOptions {
    /** Wrap at the end (default true); without it the clip holds its last pose. */
    readonly loop?: boolean;
    /** Playback rate, 1 = as authored; negative plays backwards. Default 1. */
    readonly speed?: number;
    /** Where to start, seconds into the clip. Default 0. */
    readonly time?: number;
}

/** One clip in play: where it is and how it moves. */
class Track {
    clip: AnimationClip | null = null;
    time = 0;
    speed = 1;
    loop = true;

    set(clip: AnimationClip, options: PlayOptions | undefined): void {
        this.clip = clip;
        this.speed = options?.speed ?? 1;
        this.loop = options?.loop ?? true;
        this.time = wrap(options?.time ?? 0, clip.duration, this.loop);
    }

    advance(dt: number): void {
        if (this.clip !== null) this.time = wrap(this.time + dt * this.speed, this.clip.duration, this.loop);
    }
}

function wrap(time: number, duration: number, loop: boolean): number {
    if (duration <= 0) return 0;
    if (!loop) return time < 0 ? 0 : time > duration ? duration : time;
    const r = time % duration;
    return r < 0 ? r + duration : r;
}

/**
 * Plays a model's clips onto a pose: a clip by name with its time, speed and loop, and a cross-fade from the clip
 * playing to another over a duration (both advance while they blend). `update(dt)` advances and samples into
 * `pose`; once warm it allocates nothing. Nodes no clip animates hold their rest transform.
 */
export class AnimationPlayer {
    /** The result of the last `update`: local TRS and weights of every node. */
    readonly pose: AnimationPose;
    readonly clips: readonly AnimationClip[];
    readonly #current = new Track();
    readonly #previous = new Track();
    readonly #from: AnimationPose;
    readonly #to: AnimationPose;
    #fade_elapsed = 0;
    #fade_duration = 0;

    constructor(clips: readonly AnimationClip[], rest: readonly PoseNode[]) {
        this.clips = clips;
        this.pose = new AnimationPose(rest);
        this.#from = this.pose.clone_rest();
        this.#to = this.pose.clone_rest();
    }

    /** The clip called `name`; throws naming the clips there are. */
    clip(name: string): AnimationClip {
        for (const clip of this.clips) if (clip.name === name) return clip;
        throw new RangeError(`AnimationPlayer: no clip '${name}' (clips: ${this.clips.map((c) => `'${c.name}'`).join(", ") || "none"})`);
    }

    /** Plays `name` from now on, cutting any clip or fade in progress; the pose follows at the next `update`. */
    play(name: string, options?: PlayOptions): void {
        this.#current.set(this.clip(name), options);
        this.#previous.clip = null;
        this.#fade_duration = 0;
    }

    /**
     * Blends from what plays now to `name` over `duration` seconds: halfway through, the pose lies halfway between
     * the two clips (each sampled at its own time). With nothing playing it is `play`.
     */
    cross_fade(name: string, duration: number, options?: PlayOptions): void {
        if (!(duration >= 0)) throw new RangeError(`AnimationPlayer.cross_fade: duration must be 0 or more seconds, got ${duration}`);
        const clip = this.clip(name);
        if (this.#current.clip === null || duration === 0) return this.play(name, options);
        const previous = this.#previous;
        const current = this.#current;
        previous.clip = current.clip;
        previous.time = current.time;
        previous.speed = current.speed;
        previous.loop = current.loop;
        current.set(clip, options);
        this.#fade_elapsed = 0;
        this.#fade_duration = duration;
    }

    /** The clip playing (the one faded to, during a fade), or null. */
    get current(): AnimationClip | null {
        return this.#current.clip;
    }

    /** Seconds into the current clip. Setting it seeks (the pose follows at the next `update`). */
    get time(): number {
        return this.#current.time;
    }
    set time(value: number) {
        if (this.#current.clip !== null) this.#current.time = wrap(value, this.#current.clip.duration, this.#current.loop);
    }

    get speed(): number {
        return this.#current.speed;
    }
    set speed(value: number) {
        this.#current.speed = value;
    }

    get loop(): boolean {
        return this.#current.loop;
    }
    set loop(value: boolean) {
        this.#current.loop = value;
    }

    /** How far a fade has come, 0..1; 1 when none is in progress. */
    get fade(): number {
        return this.#previous.clip === null ? 1 : Math.min(1, this.#fade_elapsed / this.#fade_duration);
    }

    /** Advances by `dt` seconds (times speed) and samples into `pose`. `update(0)` samples where the clips are. */
    update(dt: number): void {
        const current = this.#current;
        const previous = this.#previous;
        current.advance(dt);
        if (previous.clip !== null) {
            previous.advance(dt);
            this.#fade_elapsed += dt;
            if (this.#fade_elapsed >= this.#fade_duration) previous.clip = null;
        }
        if (current.clip === null) {
            this.pose.reset();
            return;
        }
        if (previous.clip === null) {
            this.pose.reset();
            sample_clip(current.clip, current.time, this.pose);
            return;
        }
        this.#from.reset();
        sample_clip(previous.clip, previous.time, this.#from);
        this.#to.reset();
        sample_clip(current.clip, current.time, this.#to);
        blend_poses(this.#from, this.#to, this.#fade_elapsed / this.#fade_duration, this.pose);
    }
}

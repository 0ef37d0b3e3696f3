import type { AnimationClip } from "./AnimationClip.js";
import { AnimationPose } from "./AnimationPose.js";
import { ANIMATION_SCRATCH, SCRATCH_FACTOR, SCRATCH_TIME } from "./animation_scratch.js";
import { blend_poses_scratch } from "./blend_poses.js";
import type { PoseNode } from "./PoseNode.js";
import { sample_clip_scratch } from "./sample_clip.js";

/** How a clip plays. */
export interface PlayOptions {
    /** Wrap at the end (default true); without it the clip holds its last pose. */
    readonly loop?: boolean;
    /** Playback rate, 1 = as authored; negative plays backwards. Default 1. */
    readonly speed?: number;
    /** Where to start, seconds into the clip. Default 0. */
    readonly time?: number;
}

// Every double the update touches lives in a Float64Array: a double passed to a call the JIT does not inline, or
// stored in a field whose shape V8 has not settled, is boxed (see animation_scratch.ts).
const TIME = 0;
const SPEED = 1;

/** One clip in play: where it is and how it moves. */
class Track {
    clip: AnimationClip | null = null;
    loop = true;
    /** [time, speed] */
    readonly state = new Float64Array([0, 1]);

    set(clip: AnimationClip, options: PlayOptions | undefined): void {
        this.clip = clip;
        this.state[SPEED] = options?.speed ?? 1;
        this.loop = options?.loop ?? true;
        this.state[TIME] = options?.time ?? 0;
        this.wrap();
    }

    copy(other: Track): void {
        this.clip = other.clip;
        this.loop = other.loop;
        this.state.set(other.state);
    }

    /** Moves on by `step[0]` seconds times the speed. */
    advance(step: Float64Array): void {
        this.state[TIME] += step[0] * this.state[SPEED];
        this.wrap();
    }

    wrap(): void {
        const duration = this.clip === null ? 0 : this.clip.duration;
        const state = this.state;
        if (duration <= 0) state[TIME] = 0;
        else if (!this.loop) state[TIME] = Math.min(duration, Math.max(0, state[TIME]));
        else {
            const r = state[TIME] % duration;
            state[TIME] = r < 0 ? r + duration : r;
        }
    }
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
    /** [dt of this update, seconds of fade elapsed, fade duration] */
    readonly #numbers = new Float64Array(3);

    constructor(clips: readonly AnimationClip[], rest: readonly PoseNode[]) {
        this.clips = clips;
        this.pose = new AnimationPose(rest);
        this.#from = this.pose.clone_rest();
        this.#to = this.pose.clone_rest();
    }

    /** The clip called `name`; throws naming the clips there are. */
    clip(name: string): AnimationClip {
        const clips = this.clips;
        for (let i = 0; i < clips.length; i++) if (clips[i].name === name) return clips[i];
        throw new RangeError(`AnimationPlayer: no clip '${name}' (clips: ${this.clips.map((c) => `'${c.name}'`).join(", ") || "none"})`);
    }

    /** Plays `name` from now on, cutting any clip or fade in progress; the pose follows at the next `update`. */
    play(name: string, options?: PlayOptions): void {
        this.#current.set(this.clip(name), options);
        this.#previous.clip = null;
        this.#numbers[2] = 0;
    }

    /**
     * Blends from what plays now to `name` over `duration` seconds: halfway through, the pose lies halfway between
     * the two clips (each sampled at its own time). With nothing playing it is `play`.
     */
    cross_fade(name: string, duration: number, options?: PlayOptions): void {
        if (!(duration >= 0)) throw new RangeError(`AnimationPlayer.cross_fade: duration must be 0 or more seconds, got ${duration}`);
        const clip = this.clip(name);
        if (this.#current.clip === null || duration === 0) return this.play(name, options);
        this.#previous.copy(this.#current);
        this.#current.set(clip, options);
        this.#numbers[1] = 0;
        this.#numbers[2] = duration;
    }

    /** The clip playing (the one faded to, during a fade), or null. */
    get current(): AnimationClip | null {
        return this.#current.clip;
    }

    /** Seconds into the current clip. Setting it seeks (the pose follows at the next `update`). */
    get time(): number {
        return this.#current.state[TIME];
    }
    set time(value: number) {
        this.#current.state[TIME] = value;
        this.#current.wrap();
    }

    get speed(): number {
        return this.#current.state[SPEED];
    }
    set speed(value: number) {
        this.#current.state[SPEED] = value;
    }

    get loop(): boolean {
        return this.#current.loop;
    }
    set loop(value: boolean) {
        this.#current.loop = value;
    }

    /** How far a fade has come, 0..1; 1 when none is in progress. */
    get fade(): number {
        return this.#previous.clip === null ? 1 : Math.min(1, this.#numbers[1] / this.#numbers[2]);
    }

    /** The clip a fade in progress blends from (it stops playing when the fade ends), or null. */
    get previous(): AnimationClip | null {
        return this.#previous.clip;
    }

    /**
     * Writes where the clips are into `out`: [seconds into the current clip, seconds into the previous one (0
     * without a fade), how far the fade has come (0..1; 1 without one)]. For readers of the player's clock that
     * sample elsewhere (a baked table): numbers in an array, not doubles across calls, so reading allocates nothing.
     */
    timing(out: Float64Array): void {
        out[0] = this.#current.state[TIME];
        const previous = this.#previous;
        // without a fade the previous clip's clock is not read (a crowd's players would each touch its array)
        if (previous.clip === null) {
            out[1] = 0;
            out[2] = 1;
            return;
        }
        out[1] = previous.state[TIME];
        const numbers = this.#numbers;
        out[2] = Math.min(1, numbers[1] / numbers[2]);
    }

    /** Advances the clips and the fade by `dt` seconds (times speed) without sampling: `pose` keeps what it had. */
    advance(dt: number): void {
        const numbers = this.#numbers;
        numbers[0] = dt;
        const current = this.#current;
        const previous = this.#previous;
        current.advance(numbers);
        if (previous.clip !== null) {
            previous.advance(numbers);
            numbers[1] += dt;
            if (numbers[1] >= numbers[2]) previous.clip = null;
        }
    }

    /** Advances by `dt` seconds (times speed) and samples into `pose`. `update(0)` samples where the clips are. */
    update(dt: number): void {
        this.advance(dt);
        const numbers = this.#numbers;
        const current = this.#current;
        const previous = this.#previous;
        this.pose.reset();
        if (current.clip === null) return;
        if (previous.clip === null) {
            ANIMATION_SCRATCH[SCRATCH_TIME] = current.state[TIME];
            sample_clip_scratch(current.clip, this.pose);
            return;
        }
        this.#from.reset();
        ANIMATION_SCRATCH[SCRATCH_TIME] = previous.state[TIME];
        sample_clip_scratch(previous.clip, this.#from);
        this.#to.reset();
        ANIMATION_SCRATCH[SCRATCH_TIME] = current.state[TIME];
        sample_clip_scratch(current.clip, this.#to);
        ANIMATION_SCRATCH[SCRATCH_FACTOR] = numbers[1] / numbers[2];
        blend_poses_scratch(this.#from, this.#to, this.pose);
    }
}

import type { Animation, Node } from "@gltf-transform/core";
import type { AnimationChannel, AnimationInterpolation, AnimationPath } from "../animation/AnimationChannel.js";
import { AnimationClip } from "../animation/AnimationClip.js";
import { AssetError } from "./AssetError.js";
import { read_accessor } from "./read_accessor.js";

/**
 * @internal
 * A glTF animation as a clip: each channel's times and values as floats (normalised rotations and weights of
 * KHR_mesh_quantization decoded). Times that go backwards are an AssetError at the sampler's input. Channels
 * without a target node, or of a path this player does not animate (KHR_animation_pointer), are left out.
 */
export function read_animation(file: string, index: number, animation: Animation, node_index: ReadonlyMap<Node, number>): AnimationClip {
    const samplers = animation.listSamplers();
    const channels: AnimationChannel[] = [];
    animation.listChannels().forEach((channel) => {
        const node = channel.getTargetNode();
        const path = channel.getTargetPath() as string;
        const sampler = channel.getSampler();
        if (node === null || sampler === null || !["translation", "rotation", "scale", "weights"].includes(path)) return;
        const input = sampler.getInput();
        const output = sampler.getOutput();
        const at = `animations[${index}].samplers[${samplers.indexOf(sampler)}]`;
        if (input === null || output === null) throw new AssetError(file, at, "has no input or output accessor");
        const times = read_accessor(input);
        for (let i = 1; i < times.length; i++) {
            if (!(times[i] >= times[i - 1])) throw new AssetError(file, `${at}.input`, `keyframe ${i} at ${times[i]} s comes before keyframe ${i - 1} at ${times[i - 1]} s`);
        }
        const interpolation = sampler.getInterpolation() as AnimationInterpolation;
        const values = read_accessor(output);
        const per_key = interpolation === "CUBICSPLINE" ? 3 : 1;
        const components = path === "weights" ? values.length / (times.length * per_key) : output.getElementSize();
        if (!Number.isInteger(components) || values.length !== times.length * per_key * components) {
            throw new AssetError(file, `${at}.output`, `has ${values.length} values for ${times.length} ${interpolation} keyframes of ${path}`);
        }
        channels.push({ node: node_index.get(node)!, path: path as AnimationPath, interpolation, times, values, components });
    });
    return new AnimationClip(animation.getName() === "" ? `animation ${index}` : animation.getName(), channels);
}

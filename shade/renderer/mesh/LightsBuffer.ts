import type { Scene } from "../scene/Scene.js";
import { MAX_POINT_LIGHTS } from "../scene/Scene.js";
import { LIGHTS_BYTES } from "./mesh_wgsl.js";

/** The scene's lights as the `Lights` uniform block (see `LIGHTING_WGSL`), one buffer per device. */
export class LightsBuffer {
    readonly #floats = new Float32Array(LIGHTS_BYTES / 4);
    readonly #uints = new Uint32Array(this.#floats.buffer);
    readonly #gpu = new WeakMap<GPUDevice, GPUBuffer>();

    /** The device's buffer as last uploaded (for passes after the lighting pass in the same frame). */
    buffer(device: GPUDevice): GPUBuffer {
        const buffer = this.#gpu.get(device);
        if (buffer === undefined) throw new Error("LightsBuffer.buffer: nothing was uploaded on this device yet");
        return buffer;
    }

    /** Writes the scene's lights into the device's buffer and returns it. Once a frame, by the lighting pass. */
    upload(device: GPUDevice, scene: Scene): GPUBuffer {
        const f = this.#floats;
        const sun = scene.sun;
        f[0] = sun.direction[0];
        f[1] = sun.direction[1];
        f[2] = sun.direction[2];
        f[4] = sun.color[0] * sun.intensity;
        f[5] = sun.color[1] * sun.intensity;
        f[6] = sun.color[2] * sun.intensity;
        f[8] = scene.ambient[0];
        f[9] = scene.ambient[1];
        f[10] = scene.ambient[2];
        const count = Math.min(scene.point_light_count, MAX_POINT_LIGHTS);
        this.#uints[12] = count;
        for (let i = 0; i < count; i++) {
            const light = scene.point_light(i);
            const o = 16 + i * 8;
            f[o] = light.position[0];
            f[o + 1] = light.position[1];
            f[o + 2] = light.position[2];
            f[o + 3] = light.range;
            f[o + 4] = light.color[0] * light.intensity;
            f[o + 5] = light.color[1] * light.intensity;
            f[o + 6] = light.color[2] * light.intensity;
        }
        let buffer = this.#gpu.get(device);
        if (buffer === undefined) {
            buffer = device.createBuffer({ label: "lights", size: LIGHTS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
            this.#gpu.set(device, buffer);
        }
        device.queue.writeBuffer(buffer, 0, f.buffer, 0, (16 + count * 8) * 4);
        return buffer;
    }
}

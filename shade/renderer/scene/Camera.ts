import { mat4, vec3 } from "gl-matrix";

/** WGSL for the camera uniform block; `frame.view.camera.buffer` holds exactly this. */
export const CAMERA_WGSL = /* wgsl */ `
struct CameraUniforms {
    view_projection: mat4x4f,
    view: mat4x4f,
    projection: mat4x4f,
    inverse_view_projection: mat4x4f,
    previous_view_projection: mat4x4f,
    position: vec4f,
    // width, height, 1 / width, 1 / height of the resolution the camera renders at
    viewport: vec4f,
    // sub-pixel jitter in clip space (xy) applied to projection; zw: near, far
    jitter: vec4f,
};
`;

/** Floats in the camera uniform block (padded to a 16-byte multiple). */
export const CAMERA_FLOATS = 96;
export const CAMERA_BYTES = CAMERA_FLOATS * 4;

/**
 * A perspective camera. Matrices are derived by `update`; `buffer` is the GPU copy on the device the
 * renderer bound it to (rebuilt on a new device), valid while a frame records.
 */
export class Camera {
    readonly position: Float32Array = vec3.fromValues(0, 2, 6) as Float32Array;
    readonly target: Float32Array = vec3.fromValues(0, 0, 0) as Float32Array;
    readonly up: Float32Array = vec3.fromValues(0, 1, 0) as Float32Array;
    /** Vertical field of view, radians. */
    fov_y = Math.PI / 3;
    near = 0.1;
    far = 200;

    readonly view = mat4.create();
    readonly projection = mat4.create();
    readonly view_projection = mat4.create();
    readonly inverse_view_projection = mat4.create();
    readonly previous_view_projection = mat4.create();
    /** The uniform block as uploaded. */
    readonly data = new Float32Array(CAMERA_FLOATS);

    readonly #buffers = new WeakMap<GPUDevice, GPUBuffer>();
    #buffer: GPUBuffer | null = null;
    #has_previous = false;

    /** The camera's uniform buffer on the current device. */
    get buffer(): GPUBuffer {
        if (this.#buffer === null) {
            throw new Error("Camera.buffer read before a renderer bound the camera to a device (it exists while a frame records)");
        }
        return this.#buffer;
    }

    /**
     * Derives the matrices for a `width` x `height` target with an optional clip-space jitter (TAA), and
     * remembers last frame's view-projection for reprojection.
     */
    update(width: number, height: number, jitter_x = 0, jitter_y = 0): void {
        if (this.#has_previous) mat4.copy(this.previous_view_projection, this.view_projection);
        mat4.lookAt(this.view, this.position, this.target, this.up);
        // gl-matrix's perspectiveZO spelled out: a call passing doubles (the aspect, the fields) boxes each one
        // where the browser's compiler does not inline it (about 34 B a frame in Chromium's heap sampling)
        const p = this.projection;
        const near = this.near;
        const far = this.far;
        const f = 1 / Math.tan(this.fov_y / 2);
        p[0] = f / (width / height);
        p[1] = p[2] = p[3] = p[4] = 0;
        p[5] = f;
        p[6] = p[7] = 0;
        p[8] = jitter_x;
        p[9] = jitter_y;
        p[11] = -1;
        p[12] = p[13] = p[15] = 0;
        if (far !== Infinity) {
            const nf = 1 / (near - far);
            p[10] = far * nf;
            p[14] = far * near * nf;
        } else {
            p[10] = -1;
            p[14] = -near;
        }
        mat4.multiply(this.view_projection, this.projection, this.view);
        mat4.invert(this.inverse_view_projection, this.view_projection);
        if (!this.#has_previous) {
            mat4.copy(this.previous_view_projection, this.view_projection);
            this.#has_previous = true;
        }
        const d = this.data;
        d.set(this.view_projection, 0);
        d.set(this.view, 16);
        d.set(this.projection, 32);
        d.set(this.inverse_view_projection, 48);
        d.set(this.previous_view_projection, 64);
        d[80] = this.position[0];
        d[81] = this.position[1];
        d[82] = this.position[2];
        d[83] = 1;
        d[84] = width;
        d[85] = height;
        d[86] = 1 / width;
        d[87] = 1 / height;
        d[88] = jitter_x;
        d[89] = jitter_y;
        d[90] = this.near;
        d[91] = this.far;
    }

    /** Makes `buffer` the copy on `device` (creating it once per device) and uploads `data`. */
    bind(device: GPUDevice): GPUBuffer {
        let buffer = this.#buffers.get(device);
        if (buffer === undefined) {
            buffer = device.createBuffer({
                label: "camera uniforms",
                size: CAMERA_BYTES,
                usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
            });
            this.#buffers.set(device, buffer);
        }
        this.#buffer = buffer;
        // as (ArrayBuffer, byte offset, size): Chrome's writeBuffer given the typed array leaves garbage per call
        const data = this.data;
        device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
        return buffer;
    }

    /** Forgets the bound buffer (the renderer calls this when its frame closes or it is destroyed). */
    unbind(): void {
        this.#buffer = null;
    }
}

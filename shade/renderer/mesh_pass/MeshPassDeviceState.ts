import { GPUGeometryCache } from "../mesh/GPUGeometryCache.js";
import type { MeshPassTarget } from "./MeshPassExtension.js";

// numbers, not GPUTextureUsage: this module loads before a process installs the WebGPU globals
const TARGET_USAGE = 0x10 /* RENDER_ATTACHMENT */ | 0x04 /* TEXTURE_BINDING */ | 0x01 /* COPY_SRC */;

/**
 * @internal A mesh pass's GPU objects on one device: the bind group layout (camera, objects, values) and the
 * pipeline layout, the device's geometry buffers, the bind group (made again when the camera buffer or the
 * object buffer was replaced) and the owned target's texture.
 */
export class MeshPassDeviceState {
    readonly layout: GPUBindGroupLayout;
    readonly pipeline_layout: GPUPipelineLayout;
    readonly geometries: GPUGeometryCache;
    group: GPUBindGroup | null = null;
    group_camera: GPUBuffer | null = null;
    group_generation = -1;
    texture: GPUTexture | null = null;

    /** Labels name the pass `name`. */
    constructor(device: GPUDevice, name: string) {
        const visibility = GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT;
        this.layout = device.createBindGroupLayout({
            label: `${name} bind group layout`,
            entries: [
                { binding: 0, visibility, buffer: { type: "uniform" } },
                { binding: 1, visibility, buffer: { type: "read-only-storage" } },
                { binding: 2, visibility, buffer: { type: "uniform" } },
            ],
        });
        this.pipeline_layout = device.createPipelineLayout({ label: `${name} pipeline layout`, bindGroupLayouts: [this.layout] });
        this.geometries = GPUGeometryCache.of(device);
    }

    /** The owned target's texture, made again (the old one destroyed) when the target's size or format changed. */
    target_texture(device: GPUDevice, name: string, target: MeshPassTarget): GPUTexture {
        let texture = this.texture;
        if (texture === null || texture.width !== target.width || texture.height !== target.height || texture.format !== target.format) {
            texture?.destroy();
            texture = this.texture = device.createTexture({ label: name, size: { width: target.width, height: target.height }, format: target.format, usage: TARGET_USAGE });
        }
        return texture;
    }

    /**
     * The bind group of `camera`, `objects` (of object buffer `generation`) and `values`, made again only when
     * the camera buffer or the object buffer changed since the last one.
     */
    bind_group(device: GPUDevice, name: string, camera: GPUBuffer, objects: GPUBuffer, values: GPUBuffer, generation: number): GPUBindGroup {
        if (this.group === null || this.group_camera !== camera || this.group_generation !== generation) {
            this.group = device.createBindGroup({
                label: `${name} bind group`,
                layout: this.layout,
                entries: [
                    { binding: 0, resource: { buffer: camera } },
                    { binding: 1, resource: { buffer: objects } },
                    { binding: 2, resource: { buffer: values } },
                ],
            });
            this.group_camera = camera;
            this.group_generation = generation;
        }
        return this.group;
    }
}

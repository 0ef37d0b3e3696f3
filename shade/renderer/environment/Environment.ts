import { generate_mipmaps } from "../../device/generate_mipmaps.js";
import { mip_level_count } from "../../device/mip_level_count.js";
import { brdf_lut } from "./brdf_lut.js";
import { to_half_floats } from "./float_to_half.js";
import { parse_hdr, type HdrImage } from "./parse_hdr.js";
import { ENVIRONMENT_FORMAT, environment_sampler, prefilter_environment } from "./prefilter_environment.js";

/** Sizes and quality of an environment's prefiltered textures. */
export interface EnvironmentOptions {
    /** Texels from pole to pole of the specular image's sharpest level (the sky shows it), twice that around (default 256). */
    readonly specular_size?: number;
    /** Specular levels, roughness 0 at level 0 to 1 at the last (default 6, at most the full mip chain). */
    readonly specular_levels?: number;
    /** Texels from pole to pole of the irradiance image, twice that around (default 16; irradiance is smooth). */
    readonly irradiance_size?: number;
    /** GGX samples per specular texel (default 64). */
    readonly samples?: number;
    /** Names the GPU objects (default "environment"). */
    readonly label?: string;
}

/** An environment's GPU side on one device. */
export interface EnvironmentTextures {
    /** Prefiltered radiance, equirectangular: level k reflects roughness k / (levels - 1). */
    readonly specular: GPUTexture;
    /** Cosine-weighted radiance (irradiance / pi), a small equirectangular image: diffuse light = this x albedo. */
    readonly irradiance: GPUTexture;
    /** The device's split-sum BRDF lookup (`brdf_lut`), shared with every environment on it. */
    readonly brdf_lut: GPUTexture;
    readonly specular_view: GPUTextureView;
    readonly irradiance_view: GPUTextureView;
    readonly brdf_lut_view: GPUTextureView;
    /** Trilinear, wrapping around in u (`environment_sampler`). */
    readonly sampler: GPUSampler;
    /** `EnvironmentUniforms` of `environment_bindings_wgsl`: intensity, last specular level. */
    readonly uniforms: GPUBuffer;
}

interface DeviceEnvironment extends EnvironmentTextures {
    readonly device: GPUDevice;
    /** The intensity last written to `uniforms`. */
    written_intensity: number;
}

/**
 * Light from all around: an equirectangular HDR image (the sky and the surroundings, +Y up, the image's centre
 * toward -Z) prefiltered for image-based lighting. On each device it is used on, the image is uploaded
 * (rgba16float, with box-filtered mips) and compute shaders turn it into a specular image (GGX-prefiltered
 * radiance, one roughness per mip level) and a small diffuse irradiance image, both equirectangular; with the device's split-sum BRDF lookup the lighting shades ambient light
 * from them (`ENVIRONMENT_WGSL`). Set it as `Scene.environment`.
 *
 * The CPU image (half floats) is the truth and the GPU textures a cache of it per device: a new device (renderer
 * restart, device loss) prefilters again. `destroy()` frees the textures on every device.
 */
export class Environment {
    /** Multiplies all the light the environment gives, and the sky it shows. */
    intensity = 1;
    readonly width: number;
    readonly height: number;
    readonly label: string;
    readonly specular_size: number;
    readonly specular_levels: number;
    readonly irradiance_size: number;
    readonly samples: number;
    readonly #half: Uint16Array;
    readonly #per_device = new WeakMap<GPUDevice, DeviceEnvironment>();
    // the devices it has textures on, for destroy(); a lost device leaves the list
    readonly #built: DeviceEnvironment[] = [];
    readonly #uniform_data = new Float32Array(4);
    #destroyed = false;

    /** From a Radiance `.hdr` file's bytes (`name` names it in errors: see `parse_hdr`). */
    static from_hdr(bytes: Uint8Array, name: string, options?: EnvironmentOptions): Environment {
        return new Environment(parse_hdr(bytes, name), { label: `environment '${name}'`, ...options });
    }

    constructor(image: HdrImage, options: EnvironmentOptions = {}) {
        const { width, height, data } = image;
        if (width < 1 || height < 1 || data.length !== width * height * 4) {
            throw new RangeError(`Environment: the image is ${width} x ${height} but holds ${data.length} floats (RGBA wants ${width * height * 4})`);
        }
        const specular_size = options.specular_size ?? 256;
        if (!Number.isInteger(specular_size) || specular_size < 1) throw new RangeError(`Environment: specular_size ${specular_size} is not a positive integer`);
        this.width = width;
        this.height = height;
        this.label = options.label ?? "environment";
        this.specular_size = specular_size;
        this.specular_levels = Math.max(1, Math.min(options.specular_levels ?? 6, mip_level_count(specular_size * 2, specular_size)));
        this.irradiance_size = options.irradiance_size ?? 16;
        this.samples = options.samples ?? 64;
        this.#half = to_half_floats(data);
    }

    /**
     * The environment's textures on `device`, prefiltered the first time (the work is submitted at once, ahead of
     * whatever the caller records next), with `intensity` written to the uniforms when it changed.
     */
    textures(device: GPUDevice): EnvironmentTextures {
        if (this.#destroyed) throw new Error(`Environment '${this.label}' was destroyed`);
        let state = this.#per_device.get(device);
        if (state === undefined) {
            state = this.#build(device);
            this.#per_device.set(device, state);
        }
        if (state.written_intensity !== this.intensity) {
            this.#uniform_data[0] = this.intensity;
            this.#uniform_data[1] = this.specular_levels - 1;
            device.queue.writeBuffer(state.uniforms, 0, this.#uniform_data);
            state.written_intensity = this.intensity;
        }
        return state;
    }

    /** Frees the textures on every device (not the devices' shared BRDF lookups); the environment is unusable after. */
    destroy(): void {
        for (const state of this.#built) {
            state.specular.destroy();
            state.irradiance.destroy();
            state.uniforms.destroy();
            this.#per_device.delete(state.device);
        }
        this.#built.length = 0;
        this.#destroyed = true;
    }

    #build(device: GPUDevice): DeviceEnvironment {
        const label = this.label;
        // Equirectangular images with mips, not cubes: cube sampling across face edges is wrong on SwiftShader
        // through Dawn (the texels beyond an edge read as zero, darkening every face's rim: seen in a probe at
        // lod 0 and above), and the tests run there. Wrapping in u hides the seam; the poles pinch, where the
        // radiance changes slowly; each texel is prefiltered for its own direction, so density varies, not value.
        const image = (what: string, height: number, levels: number, usage: number): GPUTexture =>
            device.createTexture({ label: `${label} ${what}`, size: [height * 2, height], format: ENVIRONMENT_FORMAT, mipLevelCount: levels, usage });
        const radiance = device.createTexture({
            label: `${label} radiance`,
            size: [this.width, this.height],
            format: ENVIRONMENT_FORMAT,
            mipLevelCount: mip_level_count(this.width, this.height),
            usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.RENDER_ATTACHMENT,
        });
        device.queue.writeTexture({ texture: radiance }, this.#half, { bytesPerRow: this.width * 8 }, [this.width, this.height]);
        const written = GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC;
        const specular = image("specular", this.specular_size, this.specular_levels, written);
        const irradiance = image("irradiance", this.irradiance_size, 1, written);
        const encoder = device.createCommandEncoder({ label: `${label} prefilter` });
        encoder.pushDebugGroup(`${label}: radiance mips`);
        generate_mipmaps(device, radiance, encoder);
        encoder.popDebugGroup();
        const scratch = prefilter_environment(device, encoder, { radiance, specular, irradiance, samples: this.samples }, label);
        const lut = brdf_lut(device);
        device.queue.submit([encoder.finish()]);
        // freed once the submitted work is done with them
        radiance.destroy();
        for (const buffer of scratch) buffer.destroy();
        const state: DeviceEnvironment = {
            device,
            specular,
            irradiance,
            brdf_lut: lut,
            specular_view: specular.createView({ label: `${label} specular view` }),
            irradiance_view: irradiance.createView({ label: `${label} irradiance view` }),
            brdf_lut_view: lut.createView({ label: `${label} BRDF lookup view` }),
            sampler: environment_sampler(device, `${label} sampler`),
            uniforms: device.createBuffer({ label: `${label} uniforms`, size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }),
            written_intensity: Number.NaN,
        };
        this.#built.push(state);
        void device.lost.then(() => {
            const i = this.#built.indexOf(state);
            if (i !== -1) this.#built.splice(i, 1);
        });
        return state;
    }
}

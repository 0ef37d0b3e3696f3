import { generate_mipmaps } from "../../shade/device/generate_mipmaps.js";
import { mip_level_count } from "../../shade/device/mip_level_count.js";
import type { DecodedImage } from "./DecodedImage.js";

/**
 * @internal
 * A decoded image as a GPU texture with a full mip chain made on the GPU: rgba8unorm-srgb for colour, rgba8unorm
 * for data. Rows go up top row first, so uv (0, 0) samples the image's top-left corner, as glTF defines.
 */
export function upload_texture(device: GPUDevice, image: DecodedImage, color_space: "srgb" | "linear", label: string): GPUTexture {
    const { width, height } = image;
    const texture = device.createTexture({
        label,
        size: [width, height],
        format: color_space === "srgb" ? "rgba8unorm-srgb" : "rgba8unorm",
        mipLevelCount: mip_level_count(width, height),
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC | GPUTextureUsage.RENDER_ATTACHMENT,
    });
    if (image.kind === "pixels") {
        device.queue.writeTexture({ texture }, image.data as Uint8Array<ArrayBuffer>, { bytesPerRow: width * 4, rowsPerImage: height }, [width, height]);
    } else {
        device.queue.copyExternalImageToTexture({ source: image.bitmap, flipY: false }, { texture }, [width, height]);
    }
    generate_mipmaps(device, texture);
    return texture;
}

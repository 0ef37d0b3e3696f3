// generate_mipmaps: each level is the box filter of the one above, in linear light for sRGB (Dawn on SwiftShader).
import { describe, expect, it } from "vitest";
import { generate_mipmaps } from "../../../shade/device/generate_mipmaps.js";
import { mip_level_count } from "../../../shade/device/mip_level_count.js";
import { read_texture, with_gpu_device } from "../../harness/index.js";

function checker(size: number, a: readonly number[], b: readonly number[]): Uint8Array {
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) data.set((x + y) % 2 === 0 ? a : b, (y * size + x) * 4);
    }
    return data;
}

describe("generate_mipmaps", () => {
    it("mip_level_count is the full chain", () => {
        expect([mip_level_count(1, 1), mip_level_count(2, 1), mip_level_count(256, 256), mip_level_count(257, 3)]).toEqual([1, 2, 9, 9]);
    });

    for (const format of ["rgba8unorm", "rgba8unorm-srgb"] as const) {
        it(`fills every level of a ${format} checkerboard with its average (${format === "rgba8unorm" ? "in stored values" : "in linear light"})`, async () => {
            await with_gpu_device(async (device, track) => {
                const size = 16;
                const texture = track(
                    device.createTexture({
                        label: `checker ${format}`,
                        size: [size, size],
                        format,
                        mipLevelCount: mip_level_count(size, size),
                        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
                    }),
                );
                device.queue.writeTexture({ texture }, checker(size, [255, 0, 0, 255], [0, 0, 255, 255]), { bytesPerRow: size * 4 }, [size, size]);
                generate_mipmaps(device, texture);
                // sRGB: the mean of 1.0 and 0.0 in linear light is 0.5, stored as 188
                const mid = format === "rgba8unorm" ? 128 : 188;
                for (let level = 1; level < texture.mipLevelCount; level++) {
                    const back = await read_texture(device, texture, { mip: level });
                    const d = back.data as Uint8Array;
                    expect(back.width).toBe(size >> level);
                    for (let i = 0; i < d.length; i += 4) {
                        expect(Math.abs(d[i] - mid), `level ${level} red`).toBeLessThanOrEqual(2);
                        expect(Math.abs(d[i + 2] - mid), `level ${level} blue`).toBeLessThanOrEqual(2);
                        expect(d[i + 3]).toBe(255);
                    }
                }
            });
        });
    }

    it("refuses a texture it cannot render into, naming it", async () => {
        await with_gpu_device(async (device, track) => {
            const texture = track(device.createTexture({ label: "no target", size: [4, 4], format: "rgba8unorm", mipLevelCount: 3, usage: GPUTextureUsage.TEXTURE_BINDING }));
            expect(() => generate_mipmaps(device, texture)).toThrow(/'no target' needs TEXTURE_BINDING and RENDER_ATTACHMENT/);
        });
    });
});

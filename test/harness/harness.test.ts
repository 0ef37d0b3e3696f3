// Proves the real-GPU harness on Dawn (SwiftShader on CI): clears, read-back of every supported format,
// error reporting, PNG output.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decode_png,
  expect_pixel,
  gpu_adapter_info,
  PNG_SIGNATURE,
  pixel_at,
  read_png,
  read_texture,
  TEST_OUTPUT_DIR,
  to_rgba8,
  with_gpu_device,
  write_png,
} from './index.js';

const SIZE = 64;

function clear_texture(device: GPUDevice, texture: GPUTexture, color: GPUColorDict): void {
  const encoder = device.createCommandEncoder({ label: 'clear' });
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: texture.createView(), clearValue: color, loadOp: 'clear', storeOp: 'store' }],
  });
  pass.end();
  device.queue.submit([encoder.finish()]);
}

function make_target(device: GPUDevice, format: GPUTextureFormat, track: <O extends { destroy(): void }>(o: O) => O): GPUTexture {
  return track(
    device.createTexture({
      label: `target ${format}`,
      size: [SIZE, SIZE],
      format,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    }),
  );
}

describe('real GPU harness (Dawn)', () => {
  it('reports the adapter it runs on', async () => {
    const info = await gpu_adapter_info();
    expect(typeof info.vendor).toBe('string');
    expect(typeof info.architecture).toBe('string');
    console.info(`adapter: vendor=${info.vendor} architecture=${info.architecture} device=${info.device}`);
  });

  it('clears an rgba8unorm texture with a render pass and reads it back', async () => {
    await with_gpu_device(async (device, track) => {
      const texture = make_target(device, 'rgba8unorm', track);
      clear_texture(device, texture, { r: 0.2, g: 0.4, b: 0.8, a: 1 });
      const result = await read_texture(device, texture);
      expect(result).toMatchObject({ width: SIZE, height: SIZE, format: 'rgba8unorm', channels: 4 });
      expect(result.data).toBeInstanceOf(Uint8Array);
      for (const [x, y] of [[0, 0], [SIZE - 1, 0], [0, SIZE - 1], [SIZE - 1, SIZE - 1], [SIZE / 2, SIZE / 2]] as const) {
        expect_pixel(result, x, y, [51, 102, 204, 255], 1, 'harness_rgba8_clear');
      }
    });
  });

  it('clears an rgba16float texture and decodes half floats', async () => {
    await with_gpu_device(async (device, track) => {
      const texture = make_target(device, 'rgba16float', track);
      clear_texture(device, texture, { r: 1.5, g: -0.25, b: 0.5, a: 1 });
      const result = await read_texture(device, texture);
      expect(result.data).toBeInstanceOf(Float32Array);
      expect(result.channels).toBe(4);
      expect_pixel(result, 0, 0, [1.5, -0.25, 0.5, 1], 1e-3, 'harness_rgba16f_clear');
      expect_pixel(result, SIZE - 1, SIZE - 1, [1.5, -0.25, 0.5, 1], 1e-3, 'harness_rgba16f_clear');
    });
  });

  it('reads back every supported format, unpadding rows, swizzling bgra, at a chosen mip', async () => {
    await with_gpu_device(async (device, track) => {
      // width 7 makes every row need padding up to 256 bytes.
      const w = 7;
      const h = 3;
      const cases: { format: GPUTextureFormat; bytes: number; fill: (i: number) => ArrayBufferView; expect: (i: number) => number[] }[] = [
        { format: 'rgba8unorm', bytes: 4, fill: (i) => Uint8Array.of(i, i + 1, i + 2, 255), expect: (i) => [i, i + 1, i + 2, 255] },
        { format: 'rgba8unorm-srgb', bytes: 4, fill: (i) => Uint8Array.of(i, 2 * i, 3, 4), expect: (i) => [i, 2 * i, 3, 4] },
        { format: 'bgra8unorm', bytes: 4, fill: (i) => Uint8Array.of(10, 20, i, 40), expect: (i) => [i, 20, 10, 40] },
        { format: 'r8unorm', bytes: 1, fill: (i) => Uint8Array.of(i * 3), expect: (i) => [i * 3] },
        { format: 'rgba16float', bytes: 8, fill: () => Uint16Array.of(0x3c00, 0xc000, 0x3800, 0x0000), expect: () => [1, -2, 0.5, 0] },
        { format: 'rg16float', bytes: 4, fill: () => Uint16Array.of(0x4200, 0x3400), expect: () => [3, 0.25] },
        { format: 'rgba32float', bytes: 16, fill: (i) => Float32Array.of(i, -i, 0.5, 100), expect: (i) => [i, -i, 0.5, 100] },
        { format: 'r32float', bytes: 4, fill: (i) => Float32Array.of(i / 4), expect: (i) => [i / 4] },
        { format: 'r32uint', bytes: 4, fill: (i) => Uint32Array.of(0xfffffff0 + (i % 16)), expect: (i) => [0xfffffff0 + (i % 16)] },
        { format: 'rg32uint', bytes: 8, fill: (i) => Uint32Array.of(i, 1000 + i), expect: (i) => [i, 1000 + i] },
        { format: 'rgba32uint', bytes: 16, fill: (i) => Uint32Array.of(i, 1, 2, 3), expect: (i) => [i, 1, 2, 3] },
      ];
      for (const c of cases) {
        // Mip 1 of a (2w x 2h) texture is w x h.
        const texture = track(
          device.createTexture({
            size: [w * 2, h * 2],
            mipLevelCount: 2,
            format: c.format,
            usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
          }),
        );
        const bytes = new Uint8Array(w * h * c.bytes);
        for (let i = 0; i < w * h; i++) {
          const v = c.fill(i);
          bytes.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), i * c.bytes);
        }
        device.queue.writeTexture({ texture, mipLevel: 1 }, bytes, { bytesPerRow: w * c.bytes }, [w, h]);
        const result = await read_texture(device, texture, { mip: 1 });
        expect(result.width, c.format).toBe(w);
        expect(result.height, c.format).toBe(h);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            expect(pixel_at(result, x, y), `${c.format} (${x}, ${y})`).toEqual(c.expect(y * w + x));
          }
        }
        expect(to_rgba8(result).length).toBe(w * h * 4);
      }
    });
  });

  it('rejects with the GPU error text when the test body causes a validation error', async () => {
    const run = with_gpu_device((device, track) => {
      const texture = make_target(device, 'rgba8unorm', track);
      const buffer = track(device.createBuffer({ size: 256 * SIZE, usage: GPUBufferUsage.COPY_DST }));
      const encoder = device.createCommandEncoder({ label: 'misaligned copy' });
      // bytesPerRow must be a multiple of 256.
      encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: 100 }, [SIZE, SIZE]);
      device.queue.submit([encoder.finish()]);
    });
    await expect(run).rejects.toThrow(/GPU errors occurred[\s\S]*\[validation\][\s\S]*bytesPerRow/);
  });

  it('rethrows what the test body throws, and still cleans up', async () => {
    let captured: GPUDevice | undefined;
    const run = with_gpu_device((device) => {
      captured = device;
      throw new Error('body failed');
    });
    await expect(run).rejects.toThrow('body failed');
    const lost = await captured!.lost;
    expect(lost.reason).toBe('destroyed');
  });

  it('expect_pixel writes a PNG and names it when a pixel is wrong', async () => {
    const path = join(TEST_OUTPUT_DIR, 'harness_expected_failure.png');
    rmSync(path, { force: true });
    await with_gpu_device(async (device, track) => {
      const texture = make_target(device, 'rgba8unorm', track);
      clear_texture(device, texture, { r: 1, g: 0, b: 0, a: 1 });
      const result = await read_texture(device, texture);
      expect(() => expect_pixel(result, 3, 4, [0, 255, 0, 255], 3, 'harness_expected_failure')).toThrow(
        /pixel \(3, 4\).*expected \[0, 255, 0, 255\] \+\/- 3, actual \[255, 0, 0, 255\].*harness_expected_failure\.png/,
      );
    });
    expect(existsSync(path)).toBe(true);
    const decoded = read_png(path);
    expect(decoded.width).toBe(SIZE);
    expect(Array.from(decoded.rgba.subarray(0, 4))).toEqual([255, 0, 0, 255]);
  });

  it('write_png round-trips through decode_png', () => {
    const w = 5;
    const h = 3;
    const rgba = new Uint8Array(w * h * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37) & 0xff;
    const path = join(TEST_OUTPUT_DIR, 'harness_png_round_trip.png');
    write_png(path, w, h, rgba);
    const file = readFileSync(path);
    expect(Array.from(file.subarray(0, 8))).toEqual(Array.from(PNG_SIGNATURE));
    const decoded = decode_png(file);
    expect(decoded.width).toBe(w);
    expect(decoded.height).toBe(h);
    expect(Array.from(decoded.rgba)).toEqual(Array.from(rgba));
  });
});

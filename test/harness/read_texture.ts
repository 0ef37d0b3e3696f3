// Read a texture back to the CPU with copyTextureToBuffer (Dawn in Node, or any GPUDevice).

export type ReadbackFormat =
  | 'rgba8unorm'
  | 'rgba8uint'
  | 'rgba8unorm-srgb'
  | 'bgra8unorm'
  | 'r8unorm'
  | 'rgba16float'
  | 'rg16float'
  | 'rgba32float'
  | 'r32float'
  | 'r32uint'
  | 'rg32uint'
  | 'rgba32uint';

export type ReadbackData = Uint8Array | Float32Array | Uint32Array;

export interface TextureReadback {
  width: number;
  height: number;
  format: GPUTextureFormat;
  /** Tightly packed rows, `channels` values per texel. bgra8unorm is swizzled to RGBA; half floats decoded. */
  data: ReadbackData;
  channels: number;
}

export interface ReadTextureOptions {
  /** Mip level to read (default 0). */
  mip?: number;
  /** Array layer to read (default 0). */
  layer?: number;
}

type Kind = 'u8' | 'f16' | 'f32' | 'u32';
interface FormatInfo {
  bytes_per_texel: number;
  channels: number;
  kind: Kind;
  bgra?: boolean;
}

const FORMATS: Record<ReadbackFormat, FormatInfo> = {
  'rgba8unorm': { bytes_per_texel: 4, channels: 4, kind: 'u8' },
  'rgba8uint': { bytes_per_texel: 4, channels: 4, kind: 'u8' },
  'rgba8unorm-srgb': { bytes_per_texel: 4, channels: 4, kind: 'u8' },
  'bgra8unorm': { bytes_per_texel: 4, channels: 4, kind: 'u8', bgra: true },
  'r8unorm': { bytes_per_texel: 1, channels: 1, kind: 'u8' },
  'rgba16float': { bytes_per_texel: 8, channels: 4, kind: 'f16' },
  'rg16float': { bytes_per_texel: 4, channels: 2, kind: 'f16' },
  'rgba32float': { bytes_per_texel: 16, channels: 4, kind: 'f32' },
  'r32float': { bytes_per_texel: 4, channels: 1, kind: 'f32' },
  'r32uint': { bytes_per_texel: 4, channels: 1, kind: 'u32' },
  'rg32uint': { bytes_per_texel: 8, channels: 2, kind: 'u32' },
  'rgba32uint': { bytes_per_texel: 16, channels: 4, kind: 'u32' },
};

function is_readback_format(format: GPUTextureFormat): format is ReadbackFormat {
  return Object.prototype.hasOwnProperty.call(FORMATS, format);
}

/** IEEE 754 binary16 -> number. */
export function half_to_float(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/**
 * Copies one mip level / array layer of `texture` into a mappable buffer and returns its texels, tightly
 * packed. The texture needs `GPUTextureUsage.COPY_SRC`.
 */
export async function read_texture(
  device: GPUDevice,
  texture: GPUTexture,
  options?: ReadTextureOptions,
): Promise<TextureReadback> {
  const format = texture.format;
  if (!is_readback_format(format)) {
    throw new Error(`read_texture: format '${format}' is not supported (supported: ${Object.keys(FORMATS).join(', ')})`);
  }
  if ((texture.usage & GPUTextureUsage.COPY_SRC) === 0) {
    throw new Error(`read_texture: texture '${texture.label}' (${format}) lacks GPUTextureUsage.COPY_SRC`);
  }
  const info = FORMATS[format];
  const mip = options?.mip ?? 0;
  const layer = options?.layer ?? 0;
  if (mip >= texture.mipLevelCount) {
    throw new Error(`read_texture: mip ${mip} out of range (texture has ${texture.mipLevelCount})`);
  }
  const width = Math.max(1, texture.width >> mip);
  const height = Math.max(1, texture.height >> mip);
  const row_bytes = width * info.bytes_per_texel;
  const padded_row_bytes = Math.ceil(row_bytes / 256) * 256;

  const staging = device.createBuffer({
    label: 'read_texture staging',
    size: padded_row_bytes * height,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  try {
    const encoder = device.createCommandEncoder({ label: 'read_texture' });
    encoder.copyTextureToBuffer(
      { texture, mipLevel: mip, origin: { x: 0, y: 0, z: layer } },
      { buffer: staging, bytesPerRow: padded_row_bytes, rowsPerImage: height },
      { width, height, depthOrArrayLayers: 1 },
    );
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const padded = new Uint8Array(staging.getMappedRange());
    const packed = new Uint8Array(row_bytes * height);
    for (let y = 0; y < height; y++) {
      packed.set(padded.subarray(y * padded_row_bytes, y * padded_row_bytes + row_bytes), y * row_bytes);
    }
    staging.unmap();
    return { width, height, format, data: decode(packed, info), channels: info.channels };
  } finally {
    staging.destroy();
  }
}

function decode(bytes: Uint8Array, info: FormatInfo): ReadbackData {
  switch (info.kind) {
    case 'u8': {
      if (info.bgra) {
        for (let i = 0; i < bytes.length; i += 4) {
          const b = bytes[i]!;
          bytes[i] = bytes[i + 2]!;
          bytes[i + 2] = b;
        }
      }
      return bytes;
    }
    case 'f16': {
      const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
      const out = new Float32Array(halves.length);
      for (let i = 0; i < halves.length; i++) out[i] = half_to_float(halves[i]!);
      return out;
    }
    case 'f32':
      return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    case 'u32':
      return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }
}

/** The `channels` values of texel (x, y), e.g. [r, g, b, a] for rgba formats. */
export function pixel_at(result: TextureReadback, x: number, y: number): number[] {
  if (x < 0 || y < 0 || x >= result.width || y >= result.height || !Number.isInteger(x) || !Number.isInteger(y)) {
    throw new Error(`pixel_at: (${x}, ${y}) outside ${result.width}x${result.height}`);
  }
  const start = (y * result.width + x) * result.channels;
  return Array.from(result.data.subarray(start, start + result.channels));
}

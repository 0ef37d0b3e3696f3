// Dependency-free PNG encode/decode (8-bit RGBA out; 8-bit RGB/RGBA/grey in), for test images.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type { TextureReadback } from './read_texture.js';

export const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes 8-bit RGBA pixels (row-major, width*height*4 bytes) as a PNG. */
export function encode_png(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4) {
    throw new Error(`encode_png: expected ${width * height * 4} bytes for ${width}x${height} RGBA, got ${rgba.length}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // no interlace
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Writes 8-bit RGBA pixels to `path` as a PNG, creating the directory. */
export function write_png(path: string, width: number, height: number, rgba: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encode_png(width, height, rgba));
}

export interface DecodedPng {
  width: number;
  height: number;
  /** 8-bit RGBA, row-major. */
  rgba: Uint8Array;
}

/** Decodes a non-interlaced 8-bit PNG (greyscale, grey+alpha, RGB or RGBA), e.g. a Playwright screenshot. */
export function decode_png(png: Uint8Array): DecodedPng {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || !PNG_SIGNATURE.every((b, i) => buf[i] === b)) throw new Error('decode_png: not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let bit_depth = 0;
  let colour_type = 0;
  let interlace = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bit_depth = data[8]!;
      colour_type = data[9]!;
      interlace = data[12]!;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const channels_by_type: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
  const channels = channels_by_type[colour_type];
  if (bit_depth !== 8 || channels === undefined || interlace !== 0) {
    throw new Error(`decode_png: unsupported PNG (bit depth ${bit_depth}, colour type ${colour_type}, interlace ${interlace})`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    for (let x = 0; x < stride; x++) {
      const v = raw[src + x]!;
      const a = x >= channels ? pixels[dst + x - channels]! : 0;
      const b = y > 0 ? pixels[dst - stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[dst - stride + x - channels]! : 0;
      let predicted: number;
      switch (filter) {
        case 0: predicted = 0; break;
        case 1: predicted = a; break;
        case 2: predicted = b; break;
        case 3: predicted = (a + b) >> 1; break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`decode_png: bad filter ${filter} on row ${y}`);
      }
      pixels[dst + x] = (v + predicted) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    const d = i * 4;
    if (channels === 1 || channels === 2) {
      rgba[d] = rgba[d + 1] = rgba[d + 2] = pixels[s]!;
      rgba[d + 3] = channels === 2 ? pixels[s + 1]! : 255;
    } else {
      rgba[d] = pixels[s]!;
      rgba[d + 1] = pixels[s + 1]!;
      rgba[d + 2] = pixels[s + 2]!;
      rgba[d + 3] = channels === 4 ? pixels[s + 3]! : 255;
    }
  }
  return { width, height, rgba };
}

/** Reads and decodes a PNG file. */
export function read_png(path: string): DecodedPng {
  return decode_png(readFileSync(path));
}

/**
 * Converts any `read_texture` result to 8-bit RGBA for viewing:
 * 8-bit formats as they are; floats clamped to 0..1 and scaled to 0..255; unsigned integers scaled so the
 * image's largest value per channel maps to 255 (ids and counters become visible). One channel is shown
 * as grey, two as red/green; alpha is opaque unless the format has one (uint alpha is always opaque).
 */
export function to_rgba8(result: TextureReadback): Uint8Array {
  const { width, height, data, channels } = result;
  const count = width * height;
  const out = new Uint8Array(count * 4);
  let to_byte: (value: number, channel: number) => number;
  let alpha_from_data = channels === 4;
  if (data instanceof Uint8Array) {
    to_byte = (v) => v;
  } else if (data instanceof Float32Array) {
    to_byte = (v) => (Number.isNaN(v) ? 0 : Math.round(Math.min(1, Math.max(0, v)) * 255));
  } else {
    const max = new Array<number>(channels).fill(0);
    for (let i = 0; i < data.length; i++) max[i % channels] = Math.max(max[i % channels]!, data[i]!);
    to_byte = (v, c) => (max[c]! === 0 ? 0 : Math.round((v / max[c]!) * 255));
    alpha_from_data = false;
  }
  for (let i = 0; i < count; i++) {
    const s = i * channels;
    const d = i * 4;
    if (channels === 1) {
      out[d] = out[d + 1] = out[d + 2] = to_byte(data[s]!, 0);
    } else {
      out[d] = to_byte(data[s]!, 0);
      out[d + 1] = to_byte(data[s + 1]!, 1);
      out[d + 2] = channels >= 3 ? to_byte(data[s + 2]!, 2) : 0;
    }
    out[d + 3] = alpha_from_data ? to_byte(data[s + 3]!, 3) : 255;
  }
  return out;
}

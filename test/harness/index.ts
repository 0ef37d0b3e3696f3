export {
  with_gpu_device,
  gpu_adapter_info,
  get_gpu,
  type Destroyable,
  type TrackFn,
  type GpuDeviceOptions,
  type GpuAdapterDiagnostics,
} from './gpu_device.js';
export {
  read_texture,
  pixel_at,
  half_to_float,
  type TextureReadback,
  type ReadbackData,
  type ReadbackFormat,
  type ReadTextureOptions,
} from './read_texture.js';
export { write_png, encode_png, decode_png, read_png, to_rgba8, PNG_SIGNATURE, type DecodedPng } from './png.js';
export { expect_pixel, write_readback_png, TEST_OUTPUT_DIR } from './expect_pixels.js';
export { tonemapped } from './tonemap_reference.js';
export { screen_pixel, luminance_at } from './screen_probe.js';

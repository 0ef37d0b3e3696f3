// Runs the guide's game (bundled by esbuild into game.js beside this file) on Dawn, the `webgpu` package,
// and checks what a player would see. Prints one JSON line; writes the frames' RGBA bytes when given a folder.
//   node run_node.mjs [out_dir]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, globals } from 'webgpu';
import { TextureRenderTarget } from 'shade-ts/shade/renderer/target/TextureRenderTarget.js';
import { overlay_count, play, start_game } from './game.js';

const SIZE = 64;
Object.assign(globalThis, globals);
const gpu = create([]);

async function read_rgba(game) {
  const device = game.engine.graphics.device;
  const bytes_per_row = Math.ceil((SIZE * 4) / 256) * 256;
  const buffer = device.createBuffer({ label: 'readback', size: bytes_per_row * SIZE, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder({ label: 'readback' });
  encoder.copyTextureToBuffer({ texture: game.target.acquire() }, { buffer, bytesPerRow: bytes_per_row }, [SIZE, SIZE]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const mapped = new Uint8Array(buffer.getMappedRange());
  const rgba = new Uint8Array(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) rgba.set(mapped.subarray(y * bytes_per_row, y * bytes_per_row + SIZE * 4), y * SIZE * 4);
  buffer.unmap();
  buffer.destroy();
  return rgba;
}

const pixel = (rgba, x, y) => Array.from(rgba.subarray((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 4));
// camera at z = 5 looking at the origin, 60 degree field of view: world x on the z = 0 plane to a pixel column
const column = (x) => Math.round((x / (5 * Math.tan(Math.PI / 6)) * 0.5 + 0.5) * SIZE);
const row = (y) => Math.round((0.5 - (y / (5 * Math.tan(Math.PI / 6))) * 0.5) * SIZE);

const game = await start_game(gpu, new TextureRenderTarget(SIZE, SIZE));
const systems_on = overlay_count(game);
play(game, 30); // the runner goes from x = -1.5 to x = 1.5 in one second
const frame = await read_rgba(game);
const result = {
  systems_on,
  // the box (0.6 wide) above the trail's ribbon (0.3 wide), which is drawn over it
  marker: pixel(frame, column(1.5), row(0.24)),
  trail: pixel(frame, column(0), SIZE / 2),
  sky: pixel(frame, 2, 2),
};
// the trail system's shutdown removes its extension: the trail is gone from the next frame, the marker stays
await game.engine.remove_system(game.trails);
result.systems_after_shutdown = overlay_count(game);
game.engine.tick(1 / 30);
const after = await read_rgba(game);
result.trail_after_shutdown = pixel(after, column(0), SIZE / 2);
result.marker_after_shutdown = pixel(after, column(1.6), row(0));
result.errors = game.errors.map((e) => e.message);
// which build the export conditions chose (lib/dev or lib/prod)
result.resolved = import.meta.resolve('shade-ts/shade/renderer/target/TextureRenderTarget.js');
await game.engine.graphics.stop();
if (process.argv[2]) {
  writeFileSync(join(process.argv[2], 'frame.rgba'), frame);
  writeFileSync(join(process.argv[2], 'after.rgba'), after);
}
console.log(JSON.stringify(result));
process.exit(0);

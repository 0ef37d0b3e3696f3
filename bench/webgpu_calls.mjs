// Where a bench's WebGPU time goes, call by call: wraps every method of the WebGPU classes (encoders, passes,
// queue, device, buffers, textures) with a timer, runs the bench, and prints each method's milliseconds and calls
// per frame (a frame being one queue.submit), counted after the first CALLS_SKIP submits (default 10: the scene
// benches' warm frames). Run one size per process: the counts are the whole run's.
//
//   npm run bench -- scene_scale   (builds bench/output/scene_scale.mjs; it may fail to find a GPU here)
//   BENCH_SIZES=100000 BENCH_FRAMES=200 node bench/webgpu_calls.mjs bench/output/scene_scale.mjs
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { globals } from 'webgpu';

const SKIP = Number(process.env.CALLS_SKIP ?? 10);
const CLASSES = ['GPUCommandEncoder', 'GPURenderPassEncoder', 'GPUComputePassEncoder', 'GPURenderBundleEncoder', 'GPUQueue', 'GPUDevice', 'GPUBuffer', 'GPUTexture', 'GPUQuerySet'];
const ms = new Map();
const calls = new Map();
let submits = 0;
for (const name of CLASSES) {
  const proto = globals[name].prototype;
  for (const method of Object.getOwnPropertyNames(proto)) {
    const f = Object.getOwnPropertyDescriptor(proto, method).value;
    if (typeof f !== 'function' || method === 'constructor') continue;
    const key = `${name}.${method}`;
    const is_submit = key === 'GPUQueue.submit';
    proto[method] = function (...args) {
      const t0 = performance.now();
      const result = f.apply(this, args);
      const dt = performance.now() - t0;
      if (is_submit) submits++;
      if (submits > SKIP || (is_submit && submits === SKIP + 1)) {
        ms.set(key, (ms.get(key) ?? 0) + dt);
        calls.set(key, (calls.get(key) ?? 0) + 1);
      }
      return result;
    };
  }
}
process.on('exit', () => {
  const frames = Math.max(1, submits - SKIP);
  let total = 0;
  console.log(`webgpu_calls: per frame over ${frames} submits (after ${SKIP}), by method:`);
  for (const [key, t] of [...ms].sort((a, b) => b[1] - a[1])) {
    total += t;
    if (t / frames >= 0.001) console.log(`${(t / frames).toFixed(4).padStart(9)} ms ${(calls.get(key) / frames).toFixed(1).padStart(7)} calls  ${key}`);
  }
  console.log(`${(total / frames).toFixed(4).padStart(9)} ms in WebGPU calls a frame`);
});
await import(pathToFileURL(resolve(process.argv[2])).href);

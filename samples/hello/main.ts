// Placeholder sample: brings up WebGPU and clears the canvas in a render pass.
// (It will render through the frame graph once that exists.)
import { CLEAR_COLOR } from './clear_color.js';

const status_element = document.getElementById('status') as HTMLPreElement;

function show_status(text: string, is_error = false): void {
  status_element.textContent = text;
  status_element.classList.toggle('error', is_error);
}

async function main(): Promise<void> {
  if (!('gpu' in navigator)) throw new Error('navigator.gpu is missing: this browser has no WebGPU.');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned null: no WebGPU adapter.');
  const device = await adapter.requestDevice();
  device.addEventListener('uncapturederror', (event) => show_status(`WebGPU error: ${event.error.message}`, true));
  void device.lost.then((info) => show_status(`WebGPU device lost (${info.reason}): ${info.message}`, true));

  const canvas = document.getElementById('view') as HTMLCanvasElement;
  const context = canvas.getContext('webgpu');
  if (!context) throw new Error("canvas.getContext('webgpu') returned null.");
  const format = navigator.gpu.getPreferredCanvasFormat();
  context.configure({ device, format, alphaMode: 'opaque' });

  DEBUG: {
    if (__SHADE_DEBUG__) console.info(`[hello] adapter ${adapter.info.vendor} ${adapter.info.architecture}, canvas ${format}`);
  }

  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder({ label: 'hello frame' });
  const pass = encoder.beginRenderPass({
    label: 'clear',
    colorAttachments: [
      { view: context.getCurrentTexture().createView(), clearValue: CLEAR_COLOR, loadOp: 'clear', storeOp: 'store' },
    ],
  });
  pass.end();
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`WebGPU validation error: ${error.message}`);
  await device.queue.onSubmittedWorkDone();

  const info = adapter.info;
  show_status(`WebGPU ${[info.vendor, info.architecture].filter(Boolean).join(' ') || 'adapter'} - ${format}`);
  document.body.dataset.frame = '1';
}

main().catch((e: unknown) => {
  show_status(e instanceof Error ? `${e.name}: ${e.message}` : String(e), true);
  console.error(e);
});

import type { FrameGraph } from "./FrameGraph.js";

const encoder_descriptor: GPUCommandEncoderDescriptor = { label: "frame graph" };
// reused call to call: this runs every frame
const target = { graphics: null as unknown as GPUDevice, encoder: null as unknown as GPUCommandEncoder };
const command_buffers: GPUCommandBuffer[] = [];

/**
 * Compiles and runs a graph on its own command encoder and submits it. When culling leaves no pass, no
 * encoder is created and nothing is submitted: the frame records no GPU work at all. Returns the number
 * of passes run. The graph is not reset (a dump can still be taken).
 */
export function execute_frame_graph(graph: FrameGraph, device: GPUDevice): number {
    if (graph.compile() === 0) return 0;
    const encoder = device.createCommandEncoder(encoder_descriptor);
    target.graphics = device;
    target.encoder = encoder;
    graph.execute(target);
    const timing = graph.timer?.end_frame(encoder) ?? null;
    command_buffers[0] = encoder.finish();
    device.queue.submit(command_buffers);
    graph.timer?.read(timing);
    return graph.executed_pass_count;
}

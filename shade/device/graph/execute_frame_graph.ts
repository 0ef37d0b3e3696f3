import type { FrameGraph } from "./FrameGraph.js";

const encoder_descriptor: GPUCommandEncoderDescriptor = { label: "frame graph" };

/**
 * Compiles and runs a graph on its own command encoder and submits it. When culling leaves no pass, no
 * encoder is created and nothing is submitted: the frame records no GPU work at all. Returns the number
 * of passes run. The graph is not reset (a dump can still be taken).
 */
export function execute_frame_graph(graph: FrameGraph, device: GPUDevice): number {
    if (graph.compile() === 0) return 0;
    const encoder = device.createCommandEncoder(encoder_descriptor);
    graph.execute({ graphics: device, encoder });
    const timing = graph.timer?.end_frame(encoder) ?? null;
    device.queue.submit([encoder.finish()]);
    graph.timer?.read(timing);
    return graph.executed_pass_count;
}

// The transient pool and the descriptor intern table are bounded by the shapes in use, not by every shape ever
// seen. FAKE allocator (no GPU): the pool's bookkeeping is device-independent.
import { afterEach, describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { INTERN_GRACE_COLLECTS, TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { TransientTexturePool } from "../../../../shade/device/graph/TransientTexturePool.js";
import { FakeAllocator, fake_execution, type FakeTexture } from "./fake_allocator.js";

const USAGE = 0x10 | 0x04;

// the intern table is one per process: each test's graph lets its shapes go afterwards
const graphs: FrameGraph<FakeTexture, string>[] = [];
function make_graph(allocator = new FakeAllocator()): FrameGraph<FakeTexture, string> {
    const graph = new FrameGraph<FakeTexture, string>(allocator);
    graphs.push(graph);
    return graph;
}
afterEach(() => {
    for (const graph of graphs.splice(0)) graph.destroy();
    for (let i = 0; i <= INTERN_GRACE_COLLECTS; i++) TextureResourceDescriptor.collect();
});

/** One frame whose passes each create (and so pool) a texture of one of `shapes`. */
function frame(graph: FrameGraph<FakeTexture, string>, shapes: readonly TextureResourceDescriptor[]): void {
    for (let i = 0; i < shapes.length; i++) {
        const p = graph.add(`p${i}`, null, () => {});
        p.write(p.create(`t${i}`, shapes[i]));
        p.make_side_effect();
    }
    graph.compile();
    graph.execute(fake_execution());
    graph.reset();
}

/** Lets every shape no frame asks for age out of the pool and the table. */
function settle(graph: FrameGraph<FakeTexture, string>, keep: readonly TextureResourceDescriptor[]): void {
    for (let i = 0; i < TransientTexturePool.EVICT_AFTER_FRAMES + INTERN_GRACE_COLLECTS + 1; i++) frame(graph, keep);
}

describe("transient pool bounded by the shapes in use (FAKE allocator)", () => {
    it("10,000 distinct shapes passed through the pool leave at most the live ones interned", () => {
        const allocator = new FakeAllocator();
        const graph = make_graph(allocator);
        expect(TextureResourceDescriptor.interned_count).toBe(0);
        const steady = [TextureResourceDescriptor.of(64, 64, "rgba16float", USAGE), TextureResourceDescriptor.of(64, 64, "depth24plus", USAGE)];
        settle(graph, steady);
        let most_shapes = 0;
        for (let i = 0; i < 10_000; i++) {
            // a resize storm: a new size every frame, two formats of it, beside the steady shapes
            const w = 1 + (i % 100);
            const h = 1 + Math.floor(i / 100);
            frame(graph, [...steady, TextureResourceDescriptor.of(w, h, "rgba8unorm", USAGE), TextureResourceDescriptor.of(w, h, "r32float", USAGE)]);
            most_shapes = Math.max(most_shapes, graph.pool.shape_count);
        }
        // the pool walks only what it holds: the steady shapes and the last EVICT_AFTER_FRAMES frames' storm shapes
        expect(most_shapes).toBeLessThanOrEqual(steady.length + 2 * (TransientTexturePool.EVICT_AFTER_FRAMES + 1));
        expect(graph.pool.live_count).toBe(graph.pool.shape_count);
        settle(graph, steady);
        expect(graph.pool.shape_count).toBe(steady.length);
        expect(graph.pool.live_count).toBe(steady.length);
        // interned: the live shapes, no more
        expect(TextureResourceDescriptor.interned_count).toBe(graph.pool.shape_count);
        expect(allocator.created.length - allocator.destroyed.length).toBe(steady.length);
    });

    it("a shape in use keeps its interned object; a forgotten one is made anew", () => {
        const graph = make_graph();
        const steady = TextureResourceDescriptor.of(40, 30, "rgba8unorm", USAGE);
        const passing = TextureResourceDescriptor.of(41, 29, "rgba8unorm", USAGE);
        frame(graph, [steady, passing]);
        settle(graph, [steady]);
        expect(TextureResourceDescriptor.of(40, 30, "rgba8unorm", USAGE)).toBe(steady);
        const again = TextureResourceDescriptor.of(41, 29, "rgba8unorm", USAGE);
        expect(again).not.toBe(passing);
        expect(again.label).toBe(passing.label);
    });

    it("a descriptor kept past the table forgetting it shares one texture with its interned twin", () => {
        const allocator = new FakeAllocator();
        const graph = make_graph(allocator);
        const kept = TextureResourceDescriptor.of(33, 17, "rgba8unorm", USAGE);
        frame(graph, [kept]);
        settle(graph, []);
        const twin = TextureResourceDescriptor.of(33, 17, "rgba8unorm", USAGE);
        expect(twin).not.toBe(kept);
        const before = allocator.created.length;
        // frames alternate the two objects of one shape: one bucket, one texture reused
        for (let i = 0; i < 6; i++) frame(graph, [i % 2 === 0 ? kept : twin]);
        expect(allocator.created.length - before).toBe(1);
        expect(graph.pool.shape_count).toBe(1);
    });

    it("a shape imported every frame (never pooled) keeps its object; the table forgets it once it stops", () => {
        const allocator = new FakeAllocator();
        const graph = make_graph(allocator);
        const canvas = allocator.create(TextureResourceDescriptor.of(50, 20, "bgra8unorm", USAGE), "canvas");
        const shape = { width: 50, height: 20, format: "bgra8unorm", usage: USAGE };
        const imported = () => {
            const h = graph.import_texture("canvas", { ...canvas, ...shape } as unknown as FakeTexture);
            return graph.describe(h);
        };
        const first = imported();
        graph.reset();
        for (let i = 0; i < INTERN_GRACE_COLLECTS * 3; i++) {
            expect(imported()).toBe(first);
            graph.reset();
        }
        settle(graph, []);
        expect(TextureResourceDescriptor.of(50, 20, "bgra8unorm", USAGE)).not.toBe(first);
    });

    it("clear() destroys every texture and lets every shape go", () => {
        const allocator = new FakeAllocator();
        const graph = make_graph(allocator);
        frame(graph, [TextureResourceDescriptor.of(12, 12, "rgba8unorm", USAGE), TextureResourceDescriptor.of(13, 12, "rgba8unorm", USAGE)]);
        graph.pool.clear();
        expect(graph.pool.shape_count).toBe(0);
        expect(graph.pool.live_count).toBe(0);
        expect(allocator.destroyed.length).toBe(allocator.created.length);
        settle(graph, []);
        expect(TextureResourceDescriptor.interned_count).toBe(0);
    });
});

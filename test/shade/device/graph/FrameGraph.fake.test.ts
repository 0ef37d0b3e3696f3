// Device-independent scenarios of the frame graph, on a FAKE allocator and a FAKE encoder (no GPU).
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { INDEX_MASK } from "../../../../shade/device/graph/FrameGraphHandle.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { TransientTexturePool } from "../../../../shade/device/graph/TransientTexturePool.js";
import { FakeAllocator, fake_execution, type FakeTexture } from "./fake_allocator.js";

const RGBA = TextureResourceDescriptor.from({ resolution: [64, 64], format: "rgba8unorm", usage: 0x10 | 0x04 });
const HALF = TextureResourceDescriptor.from({ resolution: [32, 32], format: "rgba8unorm", usage: 0x10 | 0x04 });

function make(): { graph: FrameGraph<FakeTexture, string>; allocator: FakeAllocator } {
    const allocator = new FakeAllocator();
    return { graph: new FrameGraph<FakeTexture, string>(allocator), allocator };
}

/** The messages of what `run` throws, along its cause chain (a pass's execute error wraps the accessor's). */
function thrown_messages(run: () => unknown): string {
    let messages = "";
    try {
        run();
    } catch (error) {
        for (let e: unknown = error; e instanceof Error; e = e.cause) messages += `${e.message}\n`;
    }
    return messages;
}

function imported_target(graph: FrameGraph<FakeTexture, string>, allocator: FakeAllocator) {
    return graph.import_texture("canvas", allocator.create(RGBA, "canvas"), RGBA);
}

describe("frame graph (fake allocator)", () => {
    it("descriptors are interned: the same shape is the same object", () => {
        const a = TextureResourceDescriptor.from({ resolution: [64, 64], format: "rgba8unorm", usage: 0x14 });
        expect(a).toBe(RGBA);
        expect(TextureResourceDescriptor.of(32, 32, "rgba8unorm", 0x14)).toBe(HALF);
        expect(() => TextureResourceDescriptor.from({ resolution: [0, 4], format: "rgba8unorm", usage: 1 })).toThrow(
            /whole pixels/,
        );
        expect(() => TextureResourceDescriptor.of(4, 4, undefined as unknown as GPUTextureFormat, 1)).toThrow(
            "TextureResourceDescriptor: format must be a WebGPU texture format name (e.g. \"rgba16float\"), got undefined",
        );
        expect(() => TextureResourceDescriptor.of(4, 4, "rgba8unorm", 0)).toThrow("usage must be GPUTextureUsage flags");
    });

    it("culls transitively: a chain nothing consumes never runs", () => {
        const { graph } = make();
        const ran: string[] = [];
        let a = -1;
        graph.add("a", null, () => ran.push("a")).create("a tex", RGBA);
        const ba = graph.add("a", null, () => ran.push("a"));
        a = ba.write(ba.create("a out", RGBA));
        const bb = graph.add("b", null, () => ran.push("b"));
        bb.read(a);
        bb.write(bb.create("b out", RGBA));
        expect(graph.compile()).toBe(0);
        expect(graph.is_culled("a")).toBe(true);
        expect(graph.is_culled("b")).toBe(true);
        graph.execute(fake_execution());
        expect(ran).toEqual([]);
    });

    it("a culled pass's callback never runs while its consumed sibling does", () => {
        const { graph, allocator } = make();
        const ran: string[] = [];
        const target = imported_target(graph, allocator);
        const p1 = graph.add("used", null, () => ran.push("used"));
        const used = p1.write(p1.create("used tex", RGBA));
        const p2 = graph.add("unused", null, () => ran.push("unused"));
        p2.write(p2.create("unused tex", RGBA));
        const p3 = graph.add("composite", null, () => ran.push("composite"));
        p3.read(used);
        p3.write(target);
        expect(graph.compile()).toBe(2);
        graph.execute(fake_execution());
        expect(ran).toEqual(["used", "composite"]);
    });

    it("side effects and imported writes are roots", () => {
        const { graph, allocator } = make();
        const ran: string[] = [];
        graph.add("upload", null, () => ran.push("upload")).make_side_effect();
        const target = imported_target(graph, allocator);
        graph.add("to canvas", null, () => ran.push("to canvas")).write(target);
        graph.add("orphan", null, () => ran.push("orphan"));
        graph.execute(fake_execution());
        expect(ran).toEqual(["upload", "to canvas"]);
    });

    it("names pass, resource and version for a superseded handle", () => {
        const { graph } = make();
        const p1 = graph.add("draw", null, () => {});
        const v0 = p1.create("colour", RGBA);
        const v1 = p1.write(v0);
        const p2 = graph.add("blur", null, () => {});
        const v2 = p2.write(v1);
        const p3 = graph.add("late reader", null, () => {});
        expect(() => p3.read(v1)).toThrow(
            "Frame graph: pass 'late reader' reads 'colour' version 1, which was superseded by version 2 (written by pass 'blur'); use the handle that write returned",
        );
        expect(() => p3.write(v1)).toThrow(/pass 'late reader' writes 'colour' version 1, which was superseded by version 2/);
        expect(p3.read(v2)).toBe(v2);
    });

    it("names pass, resource and version when execute touches an undeclared or superseded handle", () => {
        const { graph, allocator } = make();
        const target = imported_target(graph, allocator);
        const p1 = graph.add("make", null, () => {});
        const made = p1.write(p1.create("made", RGBA));
        const p2 = graph.add("sneaky", null, (_d, resources) => {
            resources.view(made);
        });
        p2.write(target);
        expect(thrown_messages(() => graph.execute(fake_execution()))).toContain(
            "Frame graph: pass 'sneaky' touched 'made' version 1 without declaring it; declare it on the pass builder with read() or write()",
        );

        const second = make();
        const t2 = imported_target(second.graph, second.allocator);
        const b = second.graph.add("overwrite", null, (_d, resources) => {
            resources.view(t2);
        });
        b.write(t2);
        expect(thrown_messages(() => second.graph.execute(fake_execution()))).toContain(
            "Frame graph: pass 'overwrite' touched 'canvas' version 0 without declaring it; it was superseded by version 1, which this pass wrote",
        );
    });

    it("rejects a handle carried over from an earlier frame", () => {
        const { graph } = make();
        const b = graph.add("p", null, () => {});
        const h = b.write(b.create("t", RGBA));
        graph.reset();
        const b2 = graph.add("q", null, () => {});
        expect(() => b2.read(h)).toThrow(/belongs to an earlier frame/);
    });

    it("rejects a handle from the previous frame once the new frame has as many handles (same index, older epoch)", () => {
        const { graph } = make();
        const record = () => {
            const b = graph.add("p", null, () => {});
            const h = b.write(b.create("t", RGBA));
            const reader = graph.add("reader", null, () => {});
            return { h, reader };
        };
        const old = record().h;
        graph.reset();
        const fresh = record();
        // the same node index is live again this frame: only the epoch tells the two handles apart
        expect(fresh.h & INDEX_MASK).toBe(old & INDEX_MASK);
        expect(fresh.h).not.toBe(old);
        expect(() => fresh.reader.read(old)).toThrow(
            `FrameGraph.reader reads: handle ${old} belongs to an earlier frame; handles live for one frame`,
        );
        expect(() => fresh.reader.write(old)).toThrow(/belongs to an earlier frame/);
        expect(() => graph.describe(old)).toThrow(/belongs to an earlier frame/);
        expect(fresh.reader.read(fresh.h)).toBe(fresh.h);
    });

    it("rejects a previous frame's handle at execute too, once the new frame has as many handles", () => {
        const { graph } = make();
        const frame = (touch: () => number) => {
            const b = graph.add("p", null, (_d, r) => {
                r.view(touch());
            });
            const h = b.write(b.create("t", RGBA));
            b.make_side_effect();
            return h;
        };
        let old = -1;
        old = frame(() => old);
        graph.execute(fake_execution());
        graph.reset();
        frame(() => old);
        expect(thrown_messages(() => graph.execute(fake_execution()))).toContain(`handle ${old} belongs to an earlier frame`);
    });

    it("handles stay small integers (V8 Smis, below 2^30) however many frames run, so keeping one allocates nothing", () => {
        const { graph } = make();
        let largest = 0;
        for (let frame = 0; frame < 2100; frame++) {
            const b = graph.add("p", null, () => {});
            const h = b.write(b.create("t", RGBA));
            largest = Math.max(largest, h);
            expect(Number.isInteger(h)).toBe(true);
            graph.reset();
        }
        expect(largest).toBeLessThan(2 ** 30);
    });

    it("reuses a transient within the frame once its last reader has run, and never while lifetimes overlap", () => {
        const { graph, allocator } = make();
        const seen: Record<string, number> = {};
        const id = (r: { texture(h: number): GPUTexture }, h: number) => (r.texture(h) as unknown as FakeTexture).id;
        const pa = graph.add("a", null, (_d, r) => (seen.a = id(r, a)));
        const a = pa.write(pa.create("A", RGBA));
        const pb = graph.add("b", null, (_d, r) => {
            seen.b = id(r, b);
            seen.b_reads_a = id(r, a);
        });
        pb.read(a);
        const b = pb.write(pb.create("B", RGBA));
        const pc = graph.add("c", null, (_d, r) => (seen.c = id(r, c)));
        pc.read(b);
        const c = pc.write(pc.create("C", RGBA));
        pc.make_side_effect();
        graph.execute(fake_execution());
        expect(seen.b_reads_a).toBe(seen.a);
        expect(seen.b).not.toBe(seen.a); // A and B are alive together in pass b
        expect(seen.c).toBe(seen.a); // A's last reader has run: C takes its texture
        expect(allocator.created.length).toBe(2);

        // next frame, same shapes: nothing new is created
        graph.reset();
        const q = graph.add("again", null, () => {});
        q.write(q.create("X", RGBA));
        q.make_side_effect();
        graph.execute(fake_execution());
        expect(allocator.created.length).toBe(2);
    });

    it(`evicts a pooled texture after ${TransientTexturePool.EVICT_AFTER_FRAMES} frames unused, not before`, () => {
        const { graph, allocator } = make();
        const frame = (shape: TextureResourceDescriptor) => {
            const p = graph.add("p", null, () => {});
            p.write(p.create("t", shape));
            p.make_side_effect();
            graph.execute(fake_execution());
            graph.reset();
        };
        frame(RGBA);
        expect(graph.pool.live_count).toBe(1);
        for (let i = 1; i < TransientTexturePool.EVICT_AFTER_FRAMES; i++) {
            frame(HALF);
            expect(allocator.destroyed.length).toBe(0);
        }
        frame(HALF); // the third frame without RGBA
        expect(allocator.destroyed.map((t) => t.descriptor)).toEqual([RGBA]);
        expect(graph.pool.live_count).toBe(1);
    });

    it("derives load and store ops: first write clears, later writes load, unread transients discard", () => {
        const { graph, allocator } = make();
        const target = imported_target(graph, allocator);
        const p1 = graph.add("draw", null, () => {});
        const c1 = p1.write(p1.create("colour", RGBA));
        const scratch = p1.write(p1.create("scratch", RGBA)); // written, never read
        const p2 = graph.add("overlay", null, () => {});
        const c2 = p2.write(c1); // auto: loads what draw left
        const p3 = graph.add("composite", null, () => {});
        p3.read(c2);
        const t1 = p3.write(target); // first write of an imported texture: clears
        const p4 = graph.add("hud", null, () => {});
        const t2 = p4.write(t1, "clear");
        graph.compile();
        expect(graph.attachment_ops(c1)).toEqual({ load: "clear", store: "store" });
        expect(graph.attachment_ops(scratch)).toEqual({ load: "clear", store: "discard" });
        expect(graph.attachment_ops(c2)).toEqual({ load: "load", store: "store" });
        expect(graph.attachment_ops(t1)).toEqual({ load: "clear", store: "store" }); // imported: always stored
        expect(graph.attachment_ops(t2)).toEqual({ load: "clear", store: "store" });
    });

    it("a read keeps the store: a pass that samples an attachment stops its discard", () => {
        const { graph } = make();
        const p1 = graph.add("depth prepass", null, () => {});
        const d = p1.write(p1.create("depth", RGBA));
        const p2 = graph.add("sampler", null, () => {});
        p2.read(d);
        p2.make_side_effect();
        graph.compile();
        expect(graph.attachment_ops(d).store).toBe("store");
    });

    it("discards a version whose only reader is culled: the store op counts live consumers only", () => {
        const { graph } = make();
        const stored: GPUStoreOp[] = [];
        const p1 = graph.add("draw", null, (_d, r) => stored.push(r.color_attachment(c).storeOp));
        const c = p1.write(p1.create("colour", RGBA));
        p1.make_side_effect(); // draw survives on its own
        const p2 = graph.add("unused blur", null, () => {});
        p2.read(c); // the only reader of c ...
        p2.write(p2.create("blurred", RGBA)); // ... writes what nothing reads: culled
        graph.compile();
        expect(graph.is_culled("unused blur")).toBe(true);
        expect(graph.is_culled("draw")).toBe(false);
        expect(graph.attachment_ops(c)).toEqual({ load: "clear", store: "discard" });
        graph.execute(fake_execution());
        expect(stored).toEqual(["discard"]); // the attachment the pass actually gets

        // the same graph with the reader kept stores
        graph.reset();
        const q1 = graph.add("draw", null, () => {});
        const d = q1.write(q1.create("colour", RGBA));
        q1.make_side_effect();
        const q2 = graph.add("kept blur", null, () => {});
        q2.read(d);
        q2.write(q2.create("blurred", RGBA));
        q2.make_side_effect();
        graph.compile();
        expect(graph.attachment_ops(d).store).toBe("store");
    });

    it("an explicit load on an imported texture keeps its contents; a clear drops the dependency", () => {
        const { graph, allocator } = make();
        const history = graph.import_texture("history", allocator.create(RGBA, "history"), RGBA);
        const p1 = graph.add("accumulate", null, () => {});
        const h1 = p1.write(history, "load");
        graph.compile();
        expect(graph.attachment_ops(h1).load).toBe("load");

        const second = make();
        const ran: string[] = [];
        const b1 = second.graph.add("first", null, () => ran.push("first"));
        const v1 = b1.write(b1.create("c", RGBA));
        const b2 = second.graph.add("second", null, () => ran.push("second"));
        b2.write(v1, "clear");
        b2.make_side_effect();
        second.graph.execute(fake_execution());
        expect(ran).toEqual(["second"]); // the cleared-over write consumed nothing of "first"
    });

    it("scopes become nested debug groups, and an unbalanced scope is refused", () => {
        const { graph } = make();
        graph.push_scope("markers");
        graph.add("markers / upload", null, () => {}).make_side_effect();
        graph.push_scope("inner");
        graph.add("inner pass", null, () => {}).make_side_effect();
        graph.pop_scope();
        graph.pop_scope();
        graph.add("root pass", null, () => {}).make_side_effect();
        const exec = fake_execution();
        graph.execute(exec);
        expect(exec.log).toEqual([
            "push markers",
            "push markers / upload",
            "pop",
            "push inner",
            "push inner pass",
            "pop",
            "pop",
            "pop",
            "push root pass",
            "pop",
        ]);
        graph.reset();
        expect(() => graph.pop_scope()).toThrow(/no scope is open/);
        graph.push_scope("left open");
        expect(() => graph.compile()).toThrow("FrameGraph.compile: scope 'left open' is still open (push_scope without pop_scope)");
    });

    it("a scope whose passes were all culled records no debug group and is grey in the dump", () => {
        const { graph, allocator } = make();
        const target = imported_target(graph, allocator);
        graph.push_scope("elided extension");
        const p = graph.add("elided extension / draw", null, () => {});
        p.write(p.create("nobody reads this", RGBA));
        graph.pop_scope();
        graph.push_scope("kept");
        graph.add("kept / present", null, () => {}).write(target);
        graph.pop_scope();
        const exec = fake_execution();
        graph.execute(exec);
        expect(exec.log.join(",")).not.toContain("elided");
        const dot = graph.dump();
        const elided = dot.slice(dot.indexOf("subgraph cluster_0"), dot.indexOf("subgraph cluster_1"));
        expect(elided).toContain('label="elided extension"');
        expect(elided).toContain('fillcolor="#e4e4e4"');
        const kept = dot.slice(dot.indexOf("subgraph cluster_1"));
        expect(kept).toContain('label="kept"');
        expect(kept.split("}")[0]).not.toContain("#e4e4e4");
        expect(dot.startsWith("digraph frame {")).toBe(true);
    });

    it("refuses to read a transient nobody wrote, and to read and write one texture in one pass", () => {
        const { graph } = make();
        const p = graph.add("reader", null, () => {});
        const h = p.create("empty", RGBA);
        expect(() => p.read(h)).toThrow("Frame graph: pass 'reader' reads 'empty' before any pass wrote it");
        const w = graph.add("writer", null, () => {});
        const v = w.write(h);
        const rw = graph.add("feedback", null, () => {});
        rw.read(v);
        expect(() => rw.write(v)).toThrow(/pass 'feedback' writes 'empty' version 1, which it also reads/);
    });

    it("describe returns the resource's descriptor", () => {
        const { graph } = make();
        const p = graph.add("p", null, () => {});
        const h = p.create("half", HALF);
        expect(graph.describe(h)).toBe(HALF);
        expect(graph.describe(p.write(h)).width).toBe(32);
    });
});

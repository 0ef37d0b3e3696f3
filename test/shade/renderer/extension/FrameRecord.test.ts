// Frame records and their guards; device-independent (a FAKE texture allocator backs the graph).
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { GBufferTextures } from "../../../../shade/renderer/extension/GBufferTextures.js";
import { PresentTarget } from "../../../../shade/renderer/extension/PresentTarget.js";
import { RenderView } from "../../../../shade/renderer/extension/RenderView.js";
import { SceneColor } from "../../../../shade/renderer/extension/SceneColor.js";
import { ViewTextures } from "../../../../shade/renderer/extension/ViewTextures.js";
import { FakeAllocator } from "../../device/graph/fake_allocator.js";

import { VisibilityGrid } from "./VisibilityGrid.js";

const RGBA = TextureResourceDescriptor.from({ resolution: [8, 8], format: "rgba8unorm", usage: 0x14 });

function open_frame(phase: FramePhase = FramePhase.FrameStart): FrameContext {
    const frame = new FrameContext(new FrameGraph(new FakeAllocator()) as unknown as FrameGraph, new RenderView());
    frame.begin(32, 32, 64, 64);
    frame.enter(phase);
    return frame;
}

function written(frame: FrameContext, name: string): number {
    const b = frame.graph.add(`make ${name}`, null, () => {});
    return b.write(b.create(name, RGBA));
}

describe("frame records", () => {
    it("a custom VisibilityGrid created at FrameStart is read at a later phase", () => {
        const frame = open_frame(FramePhase.FrameStart);
        const record_the_grid_update = (graph: FrameGraph) => {
            const b = graph.add("fog / visibility", null, () => {});
            return b.write(b.create("visibility grid", RGBA));
        };
        expect(frame.has(VisibilityGrid)).toBe(false);
        frame.create(VisibilityGrid).grid = record_the_grid_update(frame.graph);
        frame.enter(FramePhase.AfterTransparency);
        expect(frame.has(VisibilityGrid)).toBe(true);
        const grid = frame.get(VisibilityGrid).grid;
        expect(frame.describe(grid)).toBe(RGBA);
    });

    it("get of an absent record throws a sentence naming the phases that carry it (SceneColor at Overlay)", () => {
        const frame = open_frame(FramePhase.Overlay);
        expect(() => frame.get(SceneColor)).toThrow(
            "frame.get(SceneColor) at Overlay: SceneColor is not carried at Overlay; it is carried at AfterLighting, AfterTransparency and BeforePresent",
        );
        expect(frame.has(SceneColor)).toBe(false);
        const early = open_frame(FramePhase.FrameStart);
        expect(() => early.get(GBufferTextures)).toThrow(
            "it is carried at AfterGBuffer, AfterLighting, AfterTransparency and BeforePresent",
        );
        expect(() => early.get(VisibilityGrid)).toThrow(
            "frame.get(VisibilityGrid) at FrameStart: nothing created a VisibilityGrid this frame",
        );
    });

    it("create of a record the frame already carries throws", () => {
        const frame = open_frame(FramePhase.FrameStart);
        frame.create(VisibilityGrid);
        expect(() => frame.create(VisibilityGrid)).toThrow(
            "frame.create(VisibilityGrid) at FrameStart: this frame already carries a VisibilityGrid; read it with frame.get(VisibilityGrid)",
        );
    });

    it("reading a field the frame has not filled names record, field and phase", () => {
        const frame = open_frame(FramePhase.AfterLighting);
        const scene = frame.create(SceneColor);
        expect(() => scene.color).toThrow(
            "SceneColor.color read at AfterLighting before the frame filled it in (nothing has published it yet this frame)",
        );
        const grid = open_frame().create(VisibilityGrid);
        // the seed's record passes no field name: the guard finds it from the getter
        expect(() => grid.grid).toThrow("VisibilityGrid.grid read at FrameStart before the frame filled it in");
    });

    it("publishing into a frozen record names record, field and phase", () => {
        const frame = open_frame(FramePhase.AfterGBuffer);
        const g = frame.create(GBufferTextures);
        g.albedo = written(frame, "albedo");
        const v = frame.create(ViewTextures);
        v.depth = written(frame, "depth");
        frame.enter(FramePhase.AfterLighting);
        expect(g.albedo).toBeGreaterThanOrEqual(0); // still readable
        expect(() => (frame.get(GBufferTextures).albedo = written(frame, "late albedo"))).toThrow(
            "GBufferTextures.albedo published at AfterLighting, where GBufferTextures is frozen (read-only); it can be published at AfterGBuffer",
        );
        expect(() => (v.depth = written(frame, "late depth"))).toThrow("ViewTextures.depth published at AfterLighting, where ViewTextures is frozen");
    });

    it("publishing a superseded handle names record, field and the resource version", () => {
        const frame = open_frame(FramePhase.AfterLighting);
        const scene = frame.create(SceneColor);
        const v1 = written(frame, "colour");
        const b = frame.graph.add("tint", null, () => {});
        b.write(v1);
        expect(() => (scene.color = v1)).toThrow(
            "SceneColor.color published at AfterLighting with a superseded handle ('colour' version 1); publish the handle the last write returned",
        );
        const grid = frame.create(VisibilityGrid);
        expect(() => (grid.grid = v1)).toThrow("VisibilityGrid.grid published at AfterLighting with a superseded handle");
    });

    it("touching a record after its frame closed names record and field", () => {
        const frame = open_frame(FramePhase.AfterLighting);
        const scene = frame.create(SceneColor);
        scene.color = written(frame, "colour");
        frame.close();
        expect(() => scene.color).toThrow(
            "SceneColor.color read after its frame closed; records and their handles live for one frame - get the record again from the current frame",
        );
        expect(() => (scene.color = 0)).toThrow("SceneColor.color published after its frame closed");
        expect(() => frame.get(SceneColor)).toThrow("frame.get(SceneColor) after the frame closed");
    });

    it("a record kept past the phases that carry it fails when touched", () => {
        const frame = open_frame(FramePhase.BeforePresent);
        const scene = frame.create(SceneColor);
        scene.color = written(frame, "colour");
        frame.enter(FramePhase.Overlay);
        expect(() => scene.color).toThrow(
            "SceneColor.color read at Overlay, which does not carry SceneColor; it is carried at AfterLighting, AfterTransparency and BeforePresent",
        );
    });

    it("PresentTarget exists only at Overlay and its field is not a colour", () => {
        const frame = open_frame(FramePhase.Overlay);
        const present = frame.create(PresentTarget);
        present.target = written(frame, "canvas");
        expect(frame.describe(present.target).format).toBe("rgba8unorm");
        expect("color" in present).toBe(false);
    });

    it("built-in records are reused from a small ring, and come back empty", () => {
        const frame = open_frame(FramePhase.AfterLighting);
        const graph = frame.graph;
        const seen: SceneColor[] = [];
        for (let f = 0; f < 8; f++) {
            if (f > 0) {
                frame.close();
                graph.reset();
                frame.begin(32, 32, 64, 64);
                frame.enter(FramePhase.AfterLighting);
            }
            const record = frame.create(SceneColor);
            if (f > 0) expect(() => record.color).toThrow(/before the frame filled it in/);
            record.color = written(frame, "colour");
            seen.push(record);
        }
        // a handful of instances in turn, never a new one per frame once warm
        expect(new Set(seen).size).toBe(4);
        expect(seen[4]).toBe(seen[0]);
    });

    it("a built-in record kept from frame N asserts when touched in frame N+1, even though the type is reused", () => {
        const frame = open_frame(FramePhase.AfterLighting);
        const kept = frame.create(SceneColor);
        kept.color = written(frame, "colour");
        const graph = frame.graph;
        frame.close();
        graph.reset();
        frame.begin(32, 32, 64, 64);
        frame.enter(FramePhase.AfterLighting);
        const now = frame.create(SceneColor);
        now.color = written(frame, "colour");
        expect(now).not.toBe(kept);
        expect(() => kept.color).toThrow("SceneColor.color read after its frame closed");
        expect(() => {
            kept.color = now.color;
        }).toThrow("SceneColor.color published after its frame closed");
    });

    it("resolution is the internal size before the upscale and the output size after it", () => {
        const frame = open_frame(FramePhase.AfterTransparency);
        expect([...frame.resolution]).toEqual([32, 32]);
        frame.enter(FramePhase.BeforePresent);
        expect([...frame.resolution]).toEqual([64, 64]);
        frame.enter(FramePhase.Overlay);
        expect([...frame.resolution]).toEqual([64, 64]);
    });
});

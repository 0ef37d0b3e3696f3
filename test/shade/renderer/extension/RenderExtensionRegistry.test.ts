// Ordering and recording contract of the registry: device-independent (a FAKE texture allocator backs the graph).
import { describe, expect, it } from "vitest";
import { FrameGraph } from "../../../../shade/device/graph/FrameGraph.js";
import { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { frame_phase_name } from "../../../../shade/renderer/extension/frame_phase_name.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { RenderExtensionError } from "../../../../shade/renderer/extension/RenderExtensionError.js";
import { RenderExtensionRegistry } from "../../../../shade/renderer/extension/RenderExtensionRegistry.js";
import { RenderView } from "../../../../shade/renderer/extension/RenderView.js";
import { FakeAllocator } from "../../device/graph/fake_allocator.js";

const log: string[] = [];

abstract class Stub extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    record(_frame: FrameContext): void {
        log.push(this.name);
    }
}
class HighlightExtension extends Stub {
    name = "highlight";
}
class ParticleExtension extends Stub {
    name = "particles";
}
class PathDisplayExtension extends Stub {
    name = "path display";
}
class Trail3DExtension extends Stub {
    name = "trails";
}
class FogOfWarExtension extends Stub {
    name = "fog of war";
    override after = [HighlightExtension, ParticleExtension, PathDisplayExtension, Trail3DExtension];
}
class DebugDrawExtension extends Stub {
    name = "debug draw";
    override after = [FogOfWarExtension];
}
class TerrainExtension extends Stub {
    name = "terrain";
    override phase = FramePhase.AfterGBuffer;
}
class DecalExtension extends Stub {
    name = "decals";
    override phase = FramePhase.AfterGBuffer;
    override after = [TerrainExtension];
    override before = [];
}

function fake_frame(phase: FramePhase): FrameContext {
    const frame = new FrameContext(new FrameGraph(new FakeAllocator()) as unknown as FrameGraph, new RenderView());
    frame.begin(64, 64, 64, 64);
    frame.enter(phase);
    return frame;
}

function record(registry: RenderExtensionRegistry, phase: FramePhase): string[] {
    log.length = 0;
    registry.record_phase(phase, fake_frame(phase));
    return [...log];
}

describe("render extension registry", () => {
    it("FramePhase is six numbers in frame order, named by frame_phase_name", () => {
        expect([
            FramePhase.FrameStart,
            FramePhase.AfterGBuffer,
            FramePhase.AfterLighting,
            FramePhase.AfterTransparency,
            FramePhase.BeforePresent,
            FramePhase.Overlay,
        ]).toEqual([0, 1, 2, 3, 4, 5]);
        expect(frame_phase_name(FramePhase.Overlay)).toBe("Overlay");
        expect(frame_phase_name(FramePhase.AfterTransparency)).toBe("AfterTransparency");
    });

    it("resolves the six shipped AfterTransparency extensions as the seed works out, whatever the registration order", () => {
        const make = () => [
            new DebugDrawExtension(),
            new FogOfWarExtension(),
            new HighlightExtension(),
            new ParticleExtension(),
            new PathDisplayExtension(),
            new Trail3DExtension(),
        ];
        const expected = ["highlight", "particles", "path display", "trails", "fog of war", "debug draw"];
        const forwards = new RenderExtensionRegistry();
        for (const e of make()) forwards.add(e);
        expect(record(forwards, FramePhase.AfterTransparency)).toEqual(expected);
        const backwards = new RenderExtensionRegistry();
        for (const e of make().reverse()) backwards.add(e);
        expect(record(backwards, FramePhase.AfterTransparency)).toEqual(expected);
        // name order alone would be debug draw, fog of war, highlight, particles, path display, trails
        const names = make().map((e) => e.name).sort();
        expect(names).toEqual(["debug draw", "fog of war", "highlight", "particles", "path display", "trails"]);
    });

    it("puts terrain before decals at AfterGBuffer although decals sorts first by name", () => {
        const registry = new RenderExtensionRegistry();
        registry.add(new DecalExtension());
        registry.add(new TerrainExtension());
        expect(record(registry, FramePhase.AfterGBuffer)).toEqual(["terrain", "decals"]);
        expect(registry.extension_count(FramePhase.AfterGBuffer)).toBe(2);
        expect(registry.extension_count(FramePhase.AfterTransparency)).toBe(0);
    });

    it("a class nobody registered is no constraint", () => {
        const registry = new RenderExtensionRegistry();
        registry.add(new DebugDrawExtension()); // after FogOfWarExtension, which is absent
        registry.add(new HighlightExtension());
        expect(record(registry, FramePhase.AfterTransparency)).toEqual(["debug draw", "highlight"]);
    });

    it("a cycle throws at the add that closed it, names the extensions on it, and leaves the registry as it was", () => {
        class A extends Stub {
            name = "a";
        }
        class B extends Stub {
            name = "b";
            override after = [A];
        }
        class C extends Stub {
            name = "c";
            override after = [B];
            override before = [A];
        }
        const registry = new RenderExtensionRegistry();
        registry.add(new A());
        registry.add(new B());
        const before = registry.describe();
        expect(() => registry.add(new C())).toThrow(
            "add_extension('c') at AfterTransparency closes an ordering cycle: 'c' -> 'a' -> 'b' -> 'c'; the registry is unchanged",
        );
        expect(registry.describe()).toEqual(before);
        expect(registry.extension_count(FramePhase.AfterTransparency)).toBe(2);
        expect(record(registry, FramePhase.AfterTransparency)).toEqual(["a", "b"]);
    });

    it("refuses to add or remove from inside record", () => {
        const registry = new RenderExtensionRegistry();
        const victim = new HighlightExtension();
        registry.add(victim);
        class Meddler extends Stub {
            name = "meddler";
            override record(): void {
                registry.add(new ParticleExtension());
            }
        }
        class Remover extends Stub {
            name = "remover";
            override record(): void {
                registry.remove(victim);
            }
        }
        const meddler = registry.add(new Meddler());
        const error = (() => {
            try {
                record(registry, FramePhase.AfterTransparency);
            } catch (e) {
                return e as Error;
            }
            throw new Error("no throw");
        })();
        expect(error.message).toBe("Render extension 'meddler' failed to record at AfterTransparency");
        expect((error.cause as Error).message).toMatch(
            /^add_extension\('particles'\) called while render extension 'meddler' records at AfterTransparency; extensions cannot be registered or removed from inside record/,
        );
        registry.remove(meddler);
        registry.add(new Remover());
        expect(() => record(registry, FramePhase.AfterTransparency)).toThrow(/failed to record/);
        expect(registry.has(victim)).toBe(true);
    });

    it("rethrows a failing record wrapped with the original on cause, and closes the graph scope", () => {
        const registry = new RenderExtensionRegistry();
        const original = new Error("boom");
        class Failing extends Stub {
            name = "failing";
            override record(frame: FrameContext): void {
                frame.graph.push_scope("inner scope left open by the throw");
                throw original;
            }
        }
        registry.add(new Failing());
        const frame = fake_frame(FramePhase.AfterTransparency);
        let caught: Error | null = null;
        try {
            registry.record_phase(FramePhase.AfterTransparency, frame);
        } catch (e) {
            caught = e as Error;
        }
        expect(caught?.message).toBe("Render extension 'failing' failed to record at AfterTransparency");
        expect(caught?.cause).toBe(original);
        expect(frame.graph.scope_depth).toBe(0);
        expect(() => frame.graph.compile()).not.toThrow();
    });

    it("records each extension inside a graph scope named after it", () => {
        const registry = new RenderExtensionRegistry();
        const seen: string[] = [];
        class Scoped extends Stub {
            name = "scoped";
            override record(frame: FrameContext): void {
                seen.push(String(frame.graph.scope_depth));
                frame.graph.add("scoped / pass", null, () => {}).make_side_effect();
            }
        }
        registry.add(new Scoped());
        const frame = fake_frame(FramePhase.AfterTransparency);
        registry.record_phase(FramePhase.AfterTransparency, frame);
        expect(seen).toEqual(["1"]);
        frame.graph.compile();
        expect(frame.graph.dump()).toContain('label="scoped"');
    });

    it("describe() gives the resolved pipeline as data, with what placed each extension", () => {
        const registry = new RenderExtensionRegistry();
        registry.add(new DecalExtension());
        registry.add(new TerrainExtension());
        registry.add(new HighlightExtension());
        const d = registry.describe();
        expect(d.phases.map((p) => p.name)).toEqual([
            "FrameStart",
            "AfterGBuffer",
            "AfterLighting",
            "AfterTransparency",
            "BeforePresent",
            "Overlay",
        ]);
        expect(d.phases[FramePhase.AfterGBuffer].extensions).toEqual([
            { name: "terrain", class: "TerrainExtension", owner: null, position: 0, placed_by: ["no constraint: ascending name order"] },
            {
                name: "decals",
                class: "DecalExtension",
                owner: null,
                position: 1,
                placed_by: ["after 'terrain': DecalExtension.after names TerrainExtension"],
            },
        ]);
        expect(JSON.parse(JSON.stringify(d))).toEqual(d); // plain data
    });

    it("an extension's owner (the system that passed itself) is in describe() and in every RenderExtensionError", () => {
        const system = { name: "FogOfWarSystem" };
        class Fog extends Stub {
            name = "fog of war";
            override record(): void {
                throw new Error("no grid");
            }
        }
        const registry = new RenderExtensionRegistry();
        const fog = registry.add(new Fog(system));
        expect(fog.owner).toBe(system);
        registry.add(new HighlightExtension());
        const listed = registry.describe().phases[FramePhase.AfterTransparency].extensions;
        expect(listed.map((e) => [e.name, e.owner])).toEqual([
            ["fog of war", "FogOfWarSystem"],
            ["highlight", null],
        ]);
        // a failing record, isolated (reported) and not (thrown)
        const reported: RenderExtensionError[] = [];
        registry.on_failure = (error) => reported.push(error);
        record(registry, FramePhase.AfterTransparency);
        expect(reported.map((e) => e.message)).toEqual(["Render extension 'fog of war' (FogOfWarSystem) failed to record at AfterTransparency"]);
        registry.on_failure = null;
        registry.retry_suspended();
        expect(() => record(registry, FramePhase.AfterTransparency)).toThrow("Render extension 'fog of war' (FogOfWarSystem) failed to record at AfterTransparency");
        // the other two failures the renderer reports
        expect(new RenderExtensionError(fog, FramePhase.AfterTransparency, "execute", "fog of war / darken", null).message).toBe(
            "Render extension 'fog of war' (FogOfWarSystem) failed to execute pass 'fog of war / darken' at AfterTransparency",
        );
        expect(new RenderExtensionError(fog, FramePhase.AfterTransparency, "validation", "fog of war / darken", null).message).toBe(
            "Render extension 'fog of war' (FogOfWarSystem) failed GPU validation in pass 'fog of war / darken' at AfterTransparency",
        );
        // a registration refused names the owner too
        expect(() => registry.add(fog)).toThrow("render extension 'fog of war' (FogOfWarSystem) is already registered");
        class Namesake extends Stub {
            name = "fog of war";
        }
        expect(() => registry.add(new Namesake())).toThrow("already has a render extension named 'fog of war' (Fog of FogOfWarSystem)");
        // an owner that is not a named object is refused, naming the extension
        expect(() => registry.add(new Namesake(42 as never))).toThrow("render extension 'fog of war' has owner 42; an owner is null or an object with a string name");
    });

    it("rejects malformed extensions with a message naming them", () => {
        const registry = new RenderExtensionRegistry();
        class Nameless extends Stub {
            name = "";
        }
        class BadPhase extends Stub {
            name = "bad phase";
            override phase = 9 as FramePhase;
        }
        class BadAfter extends Stub {
            name = "bad after";
            override after = [new HighlightExtension()] as never;
        }
        expect(() => registry.add(new Nameless())).toThrow("add_extension: Nameless has no name; give it a non-empty name field");
        expect(() => registry.add(new BadPhase())).toThrow("render extension 'bad phase' has phase 9, which is not a FramePhase");
        expect(() => registry.add(new BadAfter())).toThrow("'bad after'.after must be an array of classes");
        const twice = registry.add(new HighlightExtension());
        expect(() => registry.add(twice)).toThrow("render extension 'highlight' is already registered");
        expect(registry.remove(twice)).toBe(true);
        expect(registry.remove(twice)).toBe(false);
        expect(registry.extension_count(FramePhase.AfterTransparency)).toBe(0);
    });
});

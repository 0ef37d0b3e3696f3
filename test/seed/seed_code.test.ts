// The seed's code as written (test/seed/seed_code.ts) works: its declarations type-check without `override`
// (npm test type-checks first) and behave as the seed says. MarkerExtension and VisibilityGrid also run on the
// real Renderer in test/shade/renderer/dynamic/MarkerExtension.test.ts and test/shade/renderer/Renderer.gpu.test.ts.
import { describe, expect, it } from "vitest";
import { FramePhase } from "../../shade/renderer/extension/FramePhase.js";
import { RenderExtensionRegistry } from "../../shade/renderer/extension/RenderExtensionRegistry.js";
import { Engine } from "../../engine/Engine.js";
import { DecalExtension, MarkerExtension, MarkerSystem, TerrainExtension, VisibilityGrid } from "./seed_code.js";

describe("the seed's code, pasted as it stands (device-independent)", () => {
    it("DecalExtension's after = [TerrainExtension] orders terrain, decals although decals sorts first by name", () => {
        class ScorchDecals extends DecalExtension {
            name = "decals";
            record(): void {}
        }
        const registry = new RenderExtensionRegistry();
        registry.add(new ScorchDecals());
        registry.add(new TerrainExtension());
        const after_gbuffer = registry.describe().phases[FramePhase.AfterGBuffer];
        expect(after_gbuffer.extensions.map((e) => e.name)).toEqual(["terrain", "decals"]);
        expect(after_gbuffer.extensions[1].class).toBe("ScorchDecals");
    });

    it("a declaration-only DecalExtension (no name, no record) is refused at add_extension, naming its class", () => {
        const registry = new RenderExtensionRegistry();
        expect(() => registry.add(new DecalExtension())).toThrow("add_extension: DecalExtension has no name");
        class Named extends DecalExtension {
            name = "decals";
        }
        expect(() => registry.add(new Named())).toThrow("render extension 'decals' has no record(frame) method");
        expect(registry.extension_count(FramePhase.AfterGBuffer)).toBe(0);
    });

    it("MarkerExtension and VisibilityGrid declare what the seed declares", () => {
        const markers = new MarkerExtension();
        expect(markers.name).toBe("markers");
        expect(markers.phase).toBe(FramePhase.AfterTransparency);
        expect(VisibilityGrid.is_present_at(FramePhase.Overlay)).toBe(true);
        markers.destroy();
    });

    it("the system's startup registers new MarkerExtension(this): describe() names the system as its owner; shutdown removes it", async () => {
        const engine = new Engine();
        const system = await engine.add_system(new MarkerSystem(engine.graphics));
        expect(system.extension?.owner).toBe(system);
        const listed = engine.graphics.describe().phases[FramePhase.AfterTransparency].extensions;
        expect(listed.map((e) => [e.name, e.class, e.owner])).toEqual([["markers", "MarkerExtension", "MarkerSystem"]]);
        await engine.remove_system(system);
        expect(engine.graphics.extension_count(FramePhase.AfterTransparency)).toBe(0);
        expect(system.extension).toBe(null);
    });
});

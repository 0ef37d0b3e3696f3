// Debug draw is the last of the scene content at AfterTransparency in every combination of the shipped systems,
// registered in either order: the real systems on an engine whose graphics never start (ordering is resolved at
// registration, device-independent), read through describe().
import { describe, expect, it } from "vitest";
import { Engine } from "../../../engine/Engine.js";
import type { System } from "../../../engine/System.js";
import { FramePhase } from "../../../shade/renderer/extension/FramePhase.js";
import { DebugDrawSystem } from "../../../systems/debug_draw/DebugDrawSystem.js";
import { FogOfWarSystem } from "../../../systems/fog_of_war/FogOfWarSystem.js";
import { HighlightSystem } from "../../../systems/highlight/HighlightSystem.js";
import { GPUParticleEmitterSystem } from "../../../systems/particles/GPUParticleEmitterSystem.js";
import { PathDisplaySystem } from "../../../systems/path_display/PathDisplaySystem.js";
import { Trail3DSystem } from "../../../systems/trails/Trail3DSystem.js";

type Make = (engine: Engine) => System;
const OTHERS: readonly { readonly name: string; readonly make: Make }[] = [
    { name: "fog of war", make: (e) => new FogOfWarSystem(e.graphics, { grid: [8, 8] }) },
    { name: "highlight", make: (e) => new HighlightSystem(e.graphics) },
    { name: "particles", make: (e) => new GPUParticleEmitterSystem(e.graphics, { capacity: 64, max_emitters: 4 }) },
    { name: "path display", make: (e) => new PathDisplaySystem(e.graphics) },
    { name: "trails", make: (e) => new Trail3DSystem(e.graphics, { segments: 4, initial_capacity: 1 }) },
];

async function after_transparency(subset: readonly Make[], debug_first: boolean): Promise<{ names: string[]; owners: (string | null)[] }> {
    const engine = new Engine();
    if (debug_first) await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
    for (const make of subset) await engine.add_system(make(engine));
    if (!debug_first) await engine.add_system(new DebugDrawSystem(engine.graphics, { initial_lines: 16 }));
    const phase = engine.graphics.describe().phases[FramePhase.AfterTransparency];
    await engine.shutdown();
    return { names: phase.extensions.map((e) => e.name), owners: phase.extensions.map((e) => e.owner) };
}

describe("debug draw's place at AfterTransparency (device-independent)", () => {
    it("is last in all 32 combinations of fog of war, highlight, particles, path display and trails, registered first or last", async () => {
        for (let mask = 0; mask < 1 << OTHERS.length; mask++) {
            const chosen = OTHERS.filter((_, i) => (mask & (1 << i)) !== 0);
            for (const debug_first of [true, false]) {
                const { names } = await after_transparency(
                    chosen.map((c) => c.make),
                    debug_first,
                );
                const what = `${chosen.map((c) => c.name).join(", ") || "nothing else"}, debug draw registered ${debug_first ? "first" : "last"}`;
                expect(names.at(-1), `${what}: ${names.join(", ")}`).toBe("debug draw");
                expect(names.length, what).toBe(chosen.length + 1);
                // and the fog, when there, still conceals everything but debug draw
                if (names.includes("fog of war")) expect(names.at(-2), `${what}: ${names.join(", ")}`).toBe("fog of war");
            }
        }
    });

    it("the seed's full order, each extension shown with the system that owns it", async () => {
        const { names, owners } = await after_transparency(
            OTHERS.map((o) => o.make),
            true,
        );
        expect(names).toEqual(["highlight", "particles", "path display", "trails", "fog of war", "debug draw"]);
        expect(owners).toEqual(["HighlightSystem", "GPUParticleEmitterSystem", "PathDisplaySystem", "Trail3DSystem", "FogOfWarSystem", "DebugDrawSystem"]);
    });
});

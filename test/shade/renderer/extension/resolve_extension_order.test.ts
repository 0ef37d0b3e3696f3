// resolve_extension_order: the order inside one phase, GPU-free (no device, no graph; the extensions never record).
import { describe, expect, it } from "vitest";
import type { FrameContext } from "../../../../shade/renderer/extension/FrameContext.js";
import { FramePhase } from "../../../../shade/renderer/extension/FramePhase.js";
import { RenderExtension } from "../../../../shade/renderer/extension/RenderExtension.js";
import { resolve_extension_order } from "../../../../shade/renderer/extension/resolve_extension_order.js";

abstract class Stub extends RenderExtension {
    phase = FramePhase.AfterTransparency;
    record(_frame: FrameContext): void {}
}
class A extends Stub {
    name = "a";
}
class B extends Stub {
    name = "b";
    override after = [A];
}
class Z extends Stub {
    name = "z";
}
class Y extends Stub {
    name = "y";
    override before = [A];
}
class C extends Stub {
    name = "c";
    override after = [B];
}

function names(extensions: RenderExtension[]): string[] {
    return resolve_extension_order(extensions).order.map((e) => e.name);
}

// every order of a list, to show registration order never matters
function permutations<T>(items: T[]): T[][] {
    if (items.length <= 1) return [items];
    return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe("resolve_extension_order", () => {
    it("breaks ties by name at every step of the resolution, not only among the first ready: b.after = [a], z free gives a, b, z", () => {
        // after a is placed, b and z are both ready: b must come first by name, although z was ready earlier
        for (const registered of permutations<RenderExtension>([new A(), new B(), new Z()])) {
            expect(names(registered)).toEqual(["a", "b", "z"]);
        }
    });

    it("breaks ties by name at every step of a longer chain: y before a, b after a, c after b, z free", () => {
        for (const registered of permutations<RenderExtension>([new Z(), new C(), new B(), new A(), new Y()])) {
            expect(names(registered)).toEqual(["y", "a", "b", "c", "z"]);
        }
    });

    it("says why each extension stands where it does", () => {
        const { order, placed_by } = resolve_extension_order([new Z(), new B(), new A()]);
        expect(order.map((e) => placed_by.get(e))).toEqual([
            ["no constraint: ascending name order"],
            ["after 'a': B.after names A"],
            ["no constraint: ascending name order"],
        ]);
    });
});

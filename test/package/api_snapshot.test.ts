// The public API (names and signatures of the emitted declarations) is what api/public-api.txt says: a change
// to a public signature fails here until `npm run api:update` rewrites the snapshot and it is committed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module without declarations
import { SNAPSHOT, api_snapshot, describe_difference, normalise_declaration } from "../../scripts/api_snapshot.mjs";

describe("public API snapshot (api/public-api.txt)", () => {
    it("matches the declarations emitted from the sources", () => {
        const expected = readFileSync(SNAPSHOT, "utf8");
        const actual = api_snapshot() as string;
        const diff = describe_difference(expected, actual) as string;
        expect(diff, `the public API changed; if that is meant, run npm run api:update and commit api/public-api.txt:\n${diff}`).toBe("");
    }, 60_000);

    it("a changed parameter, a new member or a removed module shows in the difference; comments and shader text do not", () => {
        const base = "# h\n\n## a/A.js\nexport declare class A {\n    f(x: number): void;\n}\n\n## a/B.js\nexport declare const B = 1;\n";
        expect(describe_difference(base, base)).toBe("");
        expect(describe_difference(base, base.replace("x: number", "x: string"))).toBe(
            "~ a/A.js\n    - f(x: number): void;\n    + f(x: string): void;",
        );
        expect(describe_difference(base, base.replace("}", "    g(): void;\n}"))).toContain("+ g(): void;");
        expect(describe_difference(base, base.slice(0, base.indexOf("\n## a/B.js")) + "\n")).toBe("- module a/B.js (gone)");
        expect(normalise_declaration("/** doc */\nexport declare function f(): void;\n// note\n")).toBe("export declare function f(): void;");
        const wgsl = `export declare const S = "${"x".repeat(100)}";`;
        expect(normalise_declaration(wgsl)).toBe("export declare const S = string;");
    });
});

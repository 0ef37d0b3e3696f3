// Device-independent: how the build reads tsc's declarations. The layer indexes (scripts/build_lib.mjs) take
// each module's own exported names, values apart from types; the API reference (scripts/api_docs.mjs) takes
// each exported declaration with its doc comment and its members.
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module without declarations
import { exports_of_declaration, strip_comments } from "../../scripts/build_lib.mjs";
// @ts-expect-error plain JavaScript module without declarations
import { parse_declarations } from "../../scripts/api_docs.mjs";

const DTS = `import { MAX_ENTITIES } from "./MAX_ENTITIES.js";
import type { Other } from "./Other.js";
export { MAX_ENTITIES };
/** Options of a thing. */
export interface ThingOptions {
    /** How big. */
    readonly size?: number;
}
export type ThingState = "on" | "off";
/**
 * A thing.
 * @param size how big
 */
export declare class Thing {
    #private;
    /** Its size. */
    readonly size: number;
    constructor(options?: ThingOptions);
    /** Does it, with \`{ braces }\` in a comment. */
    run(arg: { a: number; b: "}" }): Other;
}
export declare abstract class Base {
}
export declare function make_thing(size: number): Thing;
export declare const LIMIT = 4;
export declare const WGSL = "struct S { a: f32 }";
export declare enum Mode {
    A = 0,
    B = 1
}
declare const hidden: number;
declare function helper(): void;
export { hidden as visible, helper };
export type { Other };
`;

describe("exports_of_declaration (layer indexes)", () => {
    it("lists the module's own names, values apart from types; re-exports of imports belong to their module", () => {
        expect(exports_of_declaration(DTS)).toEqual([
            { name: "Thing", value: true },
            { name: "Base", value: true },
            { name: "make_thing", value: true },
            { name: "LIMIT", value: true },
            { name: "WGSL", value: true },
            { name: "Mode", value: true },
            { name: "ThingOptions", value: false },
            { name: "ThingState", value: false },
            { name: "visible", value: true },
            { name: "helper", value: true },
        ]);
    });

    it("reads no names out of comments or strings", () => {
        expect(exports_of_declaration('/** export declare class Fake {} */\nexport declare const S = "export declare class Fake2";')).toEqual([
            { name: "S", value: true },
        ]);
        expect(strip_comments('a /* b */ "c // d" // e\nf')).toBe('a  "c // d" \nf');
    });
});

describe("parse_declarations (API reference)", () => {
    it("takes each exported declaration with its doc comment and its members, private state left out", () => {
        const decls = parse_declarations(DTS);
        expect(decls.map((d: { name: string; kind: string }) => `${d.kind} ${d.name}`)).toEqual([
            "interface ThingOptions",
            "type ThingState",
            "class Thing",
            "class Base",
            "function make_thing",
            "const LIMIT",
            "const WGSL",
            "enum Mode",
        ]);
        const thing = decls[2];
        expect(thing.doc).toBe("A thing.\n- `size`: how big");
        expect(thing.signature).toBe("export declare class Thing");
        expect(thing.members.map((m: { signature: string }) => m.signature)).toEqual([
            "readonly size: number;",
            "constructor(options?: ThingOptions);",
            'run(arg: { a: number; b: "}" }): Other;',
        ]);
        expect(thing.members[0].doc).toBe("Its size.");
        expect(thing.members[1].doc).toBe(null);
        expect(decls[0].members[0]).toEqual({ doc: "How big.", signature: "readonly size?: number;" });
        expect(decls[7].members.map((m: { signature: string }) => m.signature)).toEqual(["A = 0,", "B = 1"]);
    });
});

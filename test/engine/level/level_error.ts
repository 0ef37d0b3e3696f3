// The LevelError that load_level throws for `source` (the test fails when it throws anything else, or nothing).
import { expect } from "vitest";
import type { LevelHost } from "../../../engine/level/load_level.js";
import { LevelError } from "../../../engine/level/LevelError.js";
import { load_level } from "../../../engine/level/load_level.js";

export function level_error(engine: LevelHost, source: unknown): LevelError {
    try {
        load_level(engine, source);
    } catch (error) {
        expect(error).toBeInstanceOf(LevelError);
        return error as LevelError;
    }
    throw new Error("load_level did not throw");
}

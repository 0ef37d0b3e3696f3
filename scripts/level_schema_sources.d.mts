// Types for level_schema_sources.mjs, so TypeScript tests can import it.
import type { ComponentDescriptor } from "../engine/level/ComponentDescriptor.js";

export declare const LEVEL_SCHEMA_FILE: string;
export declare function level_schema_sources(root: string): string[];
export declare function collect_descriptors(modules: readonly object[]): ComponentDescriptor[];

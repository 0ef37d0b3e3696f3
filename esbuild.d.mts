// Types for esbuild.mjs, so TypeScript tests can import it.
import type { BuildOptions } from 'esbuild';
import type { Server } from 'node:http';

export type BuildMode = 'dev' | 'prod';

export declare const ROOT: string;
export declare const SAMPLES_DIR: string;
export declare const DIST_DIR: string;

export declare function sample_names(): string[];
export declare function out_dir(mode: BuildMode): string;
export declare function esbuild_options(mode: BuildMode, outdir?: string): BuildOptions;
export declare function build(options?: { mode?: BuildMode; outdir?: string }): Promise<{ mode: BuildMode; outdir: string; samples: string[] }>;
export declare function static_server(roots: string[]): Server;
export declare function serve(options?: { port?: number; host?: string }): Promise<{ url: string; stop: () => Promise<void> }>;

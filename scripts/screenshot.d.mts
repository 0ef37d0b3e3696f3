// Types for scripts/screenshot.mjs, so TypeScript tests can import it.
export declare const CHROMIUM_ARGS: string[];
export declare function screenshot(options?: {
  sample?: string;
  out?: string;
  frames?: number;
  width?: number;
  height?: number;
  mode?: 'dev' | 'prod';
}): Promise<{ path: string; errors: string[] }>;

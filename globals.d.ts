/**
 * Build-time constant. esbuild defines it (`true` in the dev build, `false` in production, where
 * `DEBUG:` labelled blocks are dropped as well); vitest defines it as `true`.
 */
declare const __SHADE_DEBUG__: boolean;

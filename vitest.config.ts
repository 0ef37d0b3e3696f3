import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: {
    __SHADE_DEBUG__: 'true',
  },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // the soak judges frame time, so it runs alone afterwards (vitest.soak.config.ts), not beside other files
    exclude: ['test/soak/**', '**/node_modules/**'],
    setupFiles: ['test/setup/env.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Dawn is a native addon: child processes (forks) rather than worker threads keep each file's Dawn
    // instance in its own process. CI has 2 cores, so at most 2 files run at once.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});

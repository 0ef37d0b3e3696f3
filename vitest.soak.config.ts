import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The soak alone: it samples frame times and fails when the last tenth is slower than the frames after warm-up,
// which another test file running beside it would make noise of. `npm test` runs it after the rest.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/soak/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    fileParallelism: false,
    maxWorkers: 1,
  },
});

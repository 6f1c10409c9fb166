import { defineConfig } from 'vitest/config';

// Benchmarks print their figures and ratios; they run with `npm run bench`, not `npm test`.
export default defineConfig({
  test: {
    include: ['test/bench/**/*.bench.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['verbose'],
  },
});

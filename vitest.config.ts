import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    // Keychain tests need a Secret Service session; scripts/test.mjs runs them inside one.
    exclude: ['test/keychain/**', 'node_modules/**', 'out/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

import { defineConfig } from 'vitest/config';

// Keychain tests talk to a REAL Secret Service: run them through scripts/test-keychain.sh,
// which starts a private D-Bus session with an unlocked gnome-keyring in temp dirs.
export default defineConfig({
  test: {
    include: ['test/keychain/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

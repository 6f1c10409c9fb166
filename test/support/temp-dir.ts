import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Store } from '../../main/services/store';

/** A fresh folder under the system temp dir, removed by the returned cleanup. */
export function makeTempDir(prefix = 'einvoice-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh `einvoice.db` in a fresh folder for each test of the file, closed and removed after it. */
export function freshStorePerTest(prefix: string): { readonly store: Store } {
  let store: Store | undefined;
  let cleanup = () => {};
  beforeEach(() => {
    const temp = makeTempDir(prefix);
    cleanup = temp.cleanup;
    store = openDatabase(temp.dir);
  });
  afterEach(() => {
    store?.close();
    cleanup();
  });
  return {
    get store() {
      if (!store) throw new Error('the store opens in beforeEach');
      return store;
    },
  };
}

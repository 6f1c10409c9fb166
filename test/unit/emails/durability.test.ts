import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let store: Store;

beforeEach(() => {
  tmp = makeTempDir('einvoice-durability-');
  store = openDatabase(tmp.dir);
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('durability', () => {
  it('the outbox and the download jobs use PRAGMA synchronous=FULL: a committed claim survives a power cut', () => {
    // 2 = FULL: every commit of the write-ahead log is synced before the request leaves.
    expect((store.db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous).toBe(2);
    expect((store.db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
  });
});

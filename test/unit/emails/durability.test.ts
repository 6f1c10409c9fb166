import { describe, expect, it } from 'vitest';
import { freshStorePerTest } from '../../support/temp-dir';

const ctx = freshStorePerTest('einvoice-durability-');

describe('durability', () => {
  it('the outbox and the download jobs use PRAGMA synchronous=FULL: a committed claim survives a power cut', () => {
    // 2 = FULL: every commit of the write-ahead log is synced before the request leaves.
    expect((ctx.store.db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous).toBe(2);
    expect((ctx.store.db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
  });
});

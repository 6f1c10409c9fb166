import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInSession } from '../../../main/services/auth';
import { EmailService } from '../../../main/services/emails';
import { CSV_CHUNK } from '../../../main/services/emails/csv';
import { CsvReader, FIRST_CHUNK } from '../../../main/services/emails/csv-reader';
import { DEFER_INDEXES_FROM_ROWS } from '../../../main/services/emails/import-indexes';
import { ProfileService } from '../../../main/services/profiles';
import type { Store } from '../../../main/services/store';
import { bundleForNode } from '../../support/bundle';
import { freshStorePerTest, makeTempDir } from '../../support/temp-dir';

const ctx = freshStorePerTest('einvoice-email-import-');
const scratch = makeTempDir('einvoice-csv-worker-');
let script = '';
const readers: CsvReader[] = [];

beforeAll(async () => {
  script = await bundleForNode(fileURLToPath(new URL('../../../main/services/emails/csv-worker.ts', import.meta.url)), path.join(scratch.dir, 'email-csv.cjs'));
}, 60_000);

afterAll(async () => {
  for (const r of readers) await r.close();
  scratch.cleanup();
});

/** An import reader: on this thread (null) or on the built reader thread. */
function reader(onThread: boolean | string): CsvReader {
  const r = new CsvReader(onThread === true ? script : onThread === false ? null : onThread);
  readers.push(r);
  return r;
}

function service(csvReader: CsvReader): { store: Store; emails: EmailService } {
  const store = ctx.store;
  new ProfileService(store);
  const session = { profile: { id: 'sandbox' } } as unknown as SignedInSession;
  const emails = new EmailService({
    store,
    activeProfileId: () => 'sandbox',
    gate: { ready: async () => session, reportAuthFailure: async () => {} },
    csvReader,
  });
  return { store, emails };
}

const csv = (ids: string[]) => `TransactionID;ReceiverEmail\n${ids.map((id, i) => `${id};k${i}@example.com`).join('\n')}\n`;
const count = (store: Store) => Number((store.db.prepare('SELECT count(*) AS n FROM email_outbox').get() as { n: number }).n);

describe.each([
  { where: 'on this thread', onThread: false, first: CSV_CHUNK },
  { where: 'on the reader thread', onThread: true, first: FIRST_CHUNK },
])('an import read $where', ({ onThread, first }) => {
  it('that fails past its first chunk keeps the chunk it committed; the same file again adds the rest, skips the others, in file order', async () => {
    const csvReader = reader(onThread);
    const { store, emails } = service(csvReader);
    const n = CSV_CHUNK + 500;
    const ids = Array.from({ length: n }, (_, i) => `TX${String(i).padStart(6, '0')}`);
    // The database refuses one row of the second chunk, as a full disk would refuse a write.
    store.db.exec(
      `CREATE TEMP TRIGGER refuse BEFORE INSERT ON email_outbox WHEN NEW.transaction_id = '${ids[first + 100]}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    await expect(emails.importCsv(csv(ids), 'withCode')).rejects.toThrow(/disk full/);
    expect(csvReader.threaded).toBe(onThread);
    expect(count(store)).toBe(first);
    expect(emails.list({ sort: 'id', dir: 'asc', offset: 0, limit: 1 }).counts.queued).toBe(first);

    store.db.exec('DROP TRIGGER temp.refuse');
    const r = await emails.importCsv(csv(ids), 'withCode');
    expect(r.added).toHaveLength(n - first);
    expect(r.skipped.map((s) => s.line)).toEqual(Array.from({ length: first }, (_, i) => i + 2));
    expect(r.rejected).toEqual([]);
    const order = store.db.prepare('SELECT transaction_id AS tx FROM email_outbox ORDER BY id').all() as Array<{ tx: string }>;
    expect(order.map((o) => o.tx)).toEqual(ids);
    expect(emails.list({ sort: 'id', dir: 'asc', offset: 0, limit: 1 }).counts.queued).toBe(n);
  });
});

it('the reader thread gives what reading on this thread gives: bad lines, repeats, invoices already queued, line numbers', async () => {
  const lines = ['TransactionID;ReceiverName;ReceiverEmail'];
  for (let i = 0; i < 5000; i++) {
    if (i % 997 === 0) lines.push(`BAD${i};Khách ${i};not-an-address`);
    else if (i % 1499 === 0) lines.push(`TX${i - 1};Lặp lại ${i};lap${i}@example.com`);
    else lines.push(`TX${i};"Khách; số ${i}";k${i}@example.com, ketoan@example.vn`);
  }
  const text = `\uFEFF${lines.join('\r\n')}\r\n`;
  const results = [];
  for (const onThread of [false, true]) {
    const csvReader = reader(onThread);
    const { store, emails } = service(csvReader);
    store.db.exec('DELETE FROM email_outbox');
    emails.add([{ transactionId: 'TX7', receiverEmail: 'truoc@example.com', kind: 'withCode' }]);
    const r = await emails.importCsv(text, 'withCode');
    expect(csvReader.threaded).toBe(onThread);
    const rows = store.db.prepare('SELECT transaction_id, receiver_name, receiver_email FROM email_outbox ORDER BY id').all();
    results.push({ ...r, skipped: r.skipped.map(({ at: _at, ...s }) => s), added: r.added.length, rows });
  }
  expect(results[0]!.rejected.map((x) => x.line)).toEqual([2, 999, 1996, 2993, 3990, 4987]);
  expect(results[0]!.skipped.length).toBeGreaterThan(3);
  expect(results[1]).toEqual(results[0]);
});

it('a reader thread that cannot start leaves the import to this thread, with nothing lost', async () => {
  const broken = path.join(scratch.dir, 'broken.cjs');
  fs.writeFileSync(broken, "throw new Error('cannot start here');\n");
  const csvReader = reader(broken);
  const { store, emails } = service(csvReader);
  const ids = Array.from({ length: 3000 }, (_, i) => `TX${i}`);
  const r = await emails.importCsv(csv(ids), 'withCode');
  expect(csvReader.threaded).toBe(false);
  expect(r.added).toHaveLength(3000);
  expect(count(store)).toBe(3000);
  // Later imports no longer try the thread.
  const again = await emails.importCsv(csv(['TX-NEW']), 'withCode');
  expect(again.added).toHaveLength(1);
});

it('a closed reader refuses further files, and nothing of them is written', async () => {
  const csvReader = reader(true);
  const { store, emails } = service(csvReader);
  expect((await emails.importCsv(csv(['TX-1']), 'withCode')).added).toHaveLength(1);
  await csvReader.close();
  await expect(emails.importCsv(csv(['TX-2']), 'withCode')).rejects.toThrow(/closed/);
  expect(count(store)).toBe(1);
});

describe('the sort indexes by name and address during an import', () => {
  const BOTH = ['email_outbox_by_email', 'email_outbox_by_name'];
  const sortIndexes = (store: Store) =>
    (
      store.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('email_outbox_by_name', 'email_outbox_by_email') ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
  /** The indexes present as each chunk of the next imports is written. */
  const watch = (emails: EmailService, store: Store) => {
    const during: string[][] = [];
    const addRows = emails.outbox.addRows.bind(emails.outbox);
    emails.outbox.addRows = (...args) => {
      during.push(sortIndexes(store));
      return addRows(...args);
    };
    return during;
  };
  const ids = (n: number, prefix = 'TX') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('a large import into a smaller queue leaves them out while it writes and builds them again at its end', async () => {
    const { store, emails } = service(reader(true));
    const during = watch(emails, store);
    const r = await emails.importCsv(csv(ids(DEFER_INDEXES_FROM_ROWS + 100)), 'withCode');
    expect(r.added).toHaveLength(DEFER_INDEXES_FROM_ROWS + 100);
    expect(during.length).toBeGreaterThan(1);
    expect(during.every((d) => d.length === 0)).toBe(true);
    expect(sortIndexes(store)).toEqual(BOTH);
    const plan = JSON.stringify(
      store.db.prepare("EXPLAIN QUERY PLAN SELECT id FROM email_outbox WHERE profile_id = 'sandbox' ORDER BY receiver_email, id").all(),
    );
    expect(plan).toContain('email_outbox_by_email');
    const first = emails.list({ sort: 'receiverEmail', dir: 'asc', offset: 0, limit: 3 }).items.map((e) => e.receiverEmail);
    expect(first).toEqual(['k0@example.com', 'k1000@example.com', 'k1001@example.com']);
  });

  it('a small import, or one into a queue more than twice its size, keeps them up as it writes', async () => {
    const { store, emails } = service(reader(false));
    await emails.importCsv(csv(ids(2 * DEFER_INDEXES_FROM_ROWS + 10, 'OLD')), 'withCode');
    const during = watch(emails, store);
    await emails.importCsv(csv(ids(10)), 'withCode');
    await emails.importCsv(csv(ids(DEFER_INDEXES_FROM_ROWS, 'NEW')), 'withCode');
    expect(during).toEqual([BOTH, BOTH]);
    expect(count(store)).toBe(3 * DEFER_INDEXES_FROM_ROWS + 20);
  });

  it('an import that fails builds them again; a start after one was cut short builds the missing ones', async () => {
    const csvReader = reader(true);
    const { store, emails } = service(csvReader);
    const all = ids(DEFER_INDEXES_FROM_ROWS + 100);
    store.db.exec(
      `CREATE TEMP TRIGGER refuse BEFORE INSERT ON email_outbox WHEN NEW.transaction_id = '${all[FIRST_CHUNK + 100]}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    await expect(emails.importCsv(csv(all), 'withCode')).rejects.toThrow(/disk full/);
    expect(count(store)).toBe(FIRST_CHUNK);
    expect(sortIndexes(store)).toEqual(BOTH);

    // As a process killed mid-import leaves the file.
    store.db.exec('DROP INDEX email_outbox_by_name; DROP INDEX email_outbox_by_email');
    service(csvReader);
    expect(sortIndexes(store)).toEqual(BOTH);
  });
});

import { expect, it } from 'vitest';
import type { SignedInSession } from '../../../main/services/auth';
import { EmailService } from '../../../main/services/emails';
import { CSV_CHUNK } from '../../../main/services/emails/csv';
import { ProfileService } from '../../../main/services/profiles';
import type { Store } from '../../../main/services/store';
import { freshStorePerTest } from '../../support/temp-dir';

const ctx = freshStorePerTest('einvoice-email-import-');

function service(): { store: Store; emails: EmailService } {
  const store = ctx.store;
  new ProfileService(store);
  const session = { profile: { id: 'sandbox' } } as unknown as SignedInSession;
  const emails = new EmailService({ store, activeProfileId: () => 'sandbox', gate: { ready: async () => session, reportAuthFailure: async () => {} } });
  return { store, emails };
}

const csv = (ids: string[]) => `TransactionID;ReceiverEmail\n${ids.map((id, i) => `${id};k${i}@example.com`).join('\n')}\n`;
const count = (store: Store) => Number((store.db.prepare('SELECT count(*) AS n FROM email_outbox').get() as { n: number }).n);

it('an import that fails past its first chunk keeps the chunk it committed; the same file again adds the rest, skips the others, in file order', () => {
  const { store, emails } = service();
  const n = CSV_CHUNK + 500;
  const ids = Array.from({ length: n }, (_, i) => `TX${String(i).padStart(6, '0')}`);
  // The database refuses one row of the second chunk, as a full disk would refuse a write.
  store.db.exec(
    `CREATE TEMP TRIGGER refuse BEFORE INSERT ON email_outbox WHEN NEW.transaction_id = '${ids[CSV_CHUNK + 100]}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
  );
  expect(() => emails.importCsv(csv(ids), 'withCode')).toThrow(/disk full/);
  expect(count(store)).toBe(CSV_CHUNK);
  expect(emails.list({ sort: 'id', dir: 'asc', offset: 0, limit: 1 }).counts.queued).toBe(CSV_CHUNK);

  store.db.exec('DROP TRIGGER temp.refuse');
  const r = emails.importCsv(csv(ids), 'withCode');
  expect(r.added).toHaveLength(n - CSV_CHUNK);
  expect(r.skipped.map((s) => s.line)).toEqual(Array.from({ length: CSV_CHUNK }, (_, i) => i + 2));
  expect(r.rejected).toEqual([]);
  const order = store.db.prepare('SELECT transaction_id AS tx FROM email_outbox ORDER BY id').all() as Array<{ tx: string }>;
  expect(order.map((o) => o.tx)).toEqual(ids);
  expect(emails.list({ sort: 'id', dir: 'asc', offset: 0, limit: 1 }).counts.queued).toBe(n);
});

import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { EmailState } from '../../../common/calls/emails';
import type { Claim } from '../../../main/services/emails/claims';
import { checkInput } from '../../../main/services/emails/input';
import { judgeItem } from '../../../main/services/emails/judge';
import { Outbox } from '../../../main/services/emails/outbox';
import { ProfileService } from '../../../main/services/profiles';
import { migrations, openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let store: Store;

beforeEach(() => {
  tmp = makeTempDir('einvoice-email-counts-');
  store = openDatabase(tmp.dir);
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

/** What the counts must be: the rows of each profile counted by state. */
function counted(profileId: string): Record<string, number> {
  const rows = store.db.prepare('SELECT state, count(*) AS n FROM email_outbox WHERE profile_id = ? GROUP BY state').all(profileId) as Array<{
    state: EmailState;
    n: number;
  }>;
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
const nonZero = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([, n]) => n !== 0));

const op = fc.oneof(
  fc.record({ t: fc.constant('add' as const), ids: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 12 }), resend: fc.boolean() }),
  fc.record({ t: fc.constant('claim' as const), max: fc.integer({ min: 1, max: 6 }), settle: fc.constantFrom(3, 4, 1, 2, 0, -1) }),
  fc.record({ t: fc.constantFrom('release' as const, 'unknown' as const, 'crash' as const, 'failClaim' as const) }),
  fc.record({
    t: fc.constantFrom('retry' as const, 'resend' as const, 'retryUnknown' as const, 'cancel' as const, 'remove' as const),
    ids: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }),
  }),
  fc.record({ t: fc.constant('other' as const) }),
);

it('keeps the counts per state equal to the rows counted, whatever the operations, rollbacks and removed profiles', () => {
  const profiles = new ProfileService(store);
  let clock = 1_000_000;
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      store.db.exec('DELETE FROM email_outbox');
      const other = profiles.add({ name: `Khác ${clock}`, kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
      const outbox = new Outbox(store, { now: () => clock, claimAlive: () => false });
      const held: Claim[] = [];
      for (const o of ops) {
        clock += 1000;
        switch (o.t) {
          case 'add':
            outbox.add(
              'sandbox',
              o.ids.map((i) => ({ input: clean(`T${i}`) })),
              { resend: o.resend },
            );
            outbox.add(other.id, [{ input: clean(`O${o.ids[0]}`) }]);
            break;
          case 'claim': {
            const c = outbox.claim('sandbox', o.max);
            if (c && o.settle >= 0) outbox.settle({ token: c.token, verdicts: new Map(c.entries.map((e) => [e.id, judgeItem(o.settle, null)])) });
            else if (c) held.push(c);
            break;
          }
          case 'release':
          case 'unknown': {
            const c = held.pop();
            if (c && o.t === 'release') outbox.release(c, clock, null);
            if (c && o.t === 'unknown') outbox.markUnknown(c, { en: 'reset', vi: 'ngắt' });
            break;
          }
          case 'crash':
            held.length = 0;
            new Outbox(store, { now: () => clock, claimAlive: () => false }).recover();
            break;
          case 'failClaim':
            // A transaction rolled back in the middle: the counts go back with it.
            expect(() =>
              outbox.together(() => {
                outbox.claim('sandbox', 3);
                throw new Error('disk I/O error');
              }),
            ).toThrow(/disk/);
            break;
          case 'retry':
          case 'resend':
          case 'retryUnknown':
            outbox.requeue(o.ids, o.t);
            break;
          case 'cancel':
            outbox.cancel(o.ids);
            break;
          case 'remove':
            outbox.remove(o.ids);
            break;
          case 'other':
            store.db.exec("UPDATE email_outbox SET state = 'failed' WHERE id % 7 = 0 AND state = 'queued'");
            // An entry moved to another profile (and changing state on the way) moves its count.
            store.db
              .prepare("UPDATE email_outbox SET profile_id = CASE profile_id WHEN 'sandbox' THEN ? ELSE 'sandbox' END, state = 'cancelled' WHERE id % 11 = 0")
              .run(other.id);
            break;
        }
        expect(nonZero(outbox.counts('sandbox'))).toEqual(counted('sandbox'));
        expect(nonZero(outbox.counts(other.id))).toEqual(counted(other.id));
      }
      // A removed profile takes its entries and their counts with it.
      profiles.remove(other.id);
      expect(nonZero(outbox.counts(other.id))).toEqual({});
      expect(store.db.prepare('SELECT count(*) AS n FROM email_state_counts WHERE profile_id = ? AND n <> 0').get(other.id)).toEqual({ n: 0 });
    }),
    { numRuns: 60 },
  );
});

function clean(id: string) {
  const r = checkInput({ transactionId: id, receiverEmail: 'a@example.com', kind: 'withCode' });
  if (!r.ok) throw new Error(r.problem.en);
  return r.value;
}

it('counts the entries an upgraded database already holds, for every profile', () => {
  store.close();
  tmp.cleanup();
  tmp = makeTempDir('einvoice-email-counts-');
  const before = migrations.findIndex((m) => m.name.startsWith('email outbox: counts per state'));
  expect(before).toBeGreaterThan(0);
  const old = openDatabase(tmp.dir, { migrations: migrations.slice(0, before) });
  const profiles = new ProfileService(old);
  const other = profiles.add({ name: 'Cửa hàng 2', kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
  const insert = old.db.prepare(
    "INSERT INTO email_outbox (profile_id, transaction_id, receiver_email, kind, state, created_at, updated_at) VALUES (?, ?, 'a@example.com', 'withCode', ?, 'x', 'x')",
  );
  const rows: Array<[string, EmailState]> = [
    ['A', 'queued'],
    ['B', 'failed'],
    ['C', 'sent'],
    ['D', 'sent'],
    ['F', 'sending'],
  ];
  for (const [tx, state] of rows) insert.run('sandbox', tx, state);
  insert.run(other.id, 'E', 'queued');
  old.close();
  store = openDatabase(tmp.dir);
  const upgraded = new Outbox(store);
  expect(nonZero(upgraded.counts('sandbox'))).toEqual({ queued: 1, failed: 1, sent: 2, sending: 1 });
  expect(nonZero(upgraded.counts(other.id))).toEqual({ queued: 1 });
  expect(nonZero(upgraded.counts('sandbox'))).toEqual(counted('sandbox'));
});

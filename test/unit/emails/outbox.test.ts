import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgeItem } from '../../../main/services/emails/judge';
import { checkInput } from '../../../main/services/emails/input';
import { Outbox } from '../../../main/services/emails/outbox';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let store: Store;
let outbox: Outbox;
let clock = 1_000_000;

function clean(id: string, to = 'a@example.com', kind: 'withCode' | 'withoutCode' | 'cashRegister' = 'withCode') {
  const r = checkInput({ transactionId: id, receiverEmail: to, kind });
  if (!r.ok) throw new Error(r.problem.en);
  return { input: r.value };
}

beforeEach(() => {
  tmp = makeTempDir('einvoice-emails-');
  store = openDatabase(tmp.dir);
  new ProfileService(store); // the built-in sandbox profile row
  clock = 1_000_000;
  outbox = new Outbox(store, { now: () => clock, claimAlive: () => false });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('checkInput', () => {
  it('splits addresses on ; and , and joins them with ;', () => {
    const r = checkInput({ transactionId: ' TX1 ', receiverEmail: 'a@x.vn, b@y.com ;c@z.org', ccEmail: 'd@x.vn,', kind: 'withCode' });
    expect(r).toMatchObject({ ok: true, value: { transactionId: 'TX1', receiverEmail: 'a@x.vn;b@y.com;c@z.org', ccEmail: 'd@x.vn' } });
  });
  it('refuses an empty receiver, a bad address and an empty TransactionID', () => {
    expect(checkInput({ transactionId: 'T', receiverEmail: ' ; ', kind: 'withCode' }).ok).toBe(false);
    const bad = checkInput({ transactionId: 'T', receiverEmail: 'a@x.vn;not-an-address', kind: 'withCode' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problem.en).toContain('not-an-address');
    expect(checkInput({ transactionId: '  ', receiverEmail: 'a@x.vn', kind: 'withCode' }).ok).toBe(false);
  });
  it('refuses a TransactionID with half of a character pair, and keeps one with a whole pair', () => {
    expect(checkInput({ transactionId: 'TX\ud800', receiverEmail: 'a@x.vn', kind: 'withCode' }).ok).toBe(false);
    expect(checkInput({ transactionId: 'TX\udc00A', receiverEmail: 'a@x.vn', kind: 'withCode' }).ok).toBe(false);
    expect(checkInput({ transactionId: 'TX\ud83d\ude00', receiverEmail: 'a@x.vn', kind: 'withCode' }).ok).toBe(true);
  });
});

describe('judgeItem (each invoice by its own status and code)', () => {
  it('maps statuses', () => {
    expect(judgeItem(3, '').state).toBe('sent');
    expect(judgeItem(4, null).state).toBe('requested');
    expect(judgeItem(1, null).state).toBe('sendingAtService');
    expect(judgeItem(2, null)).toMatchObject({ state: 'failed', retryable: true });
    expect(judgeItem(2, 'InvalidEmail')).toMatchObject({ state: 'failed', errorCode: 'InvalidEmail', retryable: false });
    expect(judgeItem(0, 'InvoiceNotExist')).toMatchObject({ state: 'failed', retryable: false });
    expect(judgeItem(3, 'InvoiceDeleted').state).toBe('failed');
    expect(judgeItem(null, null).state).toBe('unknown');
  });
});

describe('Outbox', () => {
  it('keeps one entry per invoice: adding it again while waiting, sent, handed to the service or unknown is skipped with the reason', () => {
    clock = Date.UTC(2026, 10, 23, 3, 0); // 23/11 in Vietnam
    const first = outbox.add('sandbox', [clean('TX1', 'an@x.vn'), clean('TX2'), clean('TX3'), clean('TX4')]);
    expect(first.added).toHaveLength(4);
    const waiting = outbox.add('sandbox', [clean('TX1')]);
    expect(waiting).toMatchObject({ added: [], rejected: [], skipped: [{ transactionId: 'TX1', state: 'queued', entryId: first.added[0] }] });
    expect(waiting.skipped[0]!.reason.vi).toContain('đã có trong hàng đợi: bỏ qua');
    const claim = outbox.claim('sandbox', 10)!;
    const [e1, e2, e3, e4] = claim.entries.map((e) => e.id) as [number, number, number, number];
    outbox.settle({
      token: claim.token,
      verdicts: new Map([
        [e1, judgeItem(3, null)],
        [e2, judgeItem(4, null)],
        [e3, judgeItem(null, null)],
        [e4, judgeItem(2, 'InvalidEmail')],
      ]),
    });
    clock += 86_400_000;
    const again = outbox.add(
      'sandbox',
      [clean('TX1', 'moi@x.vn'), clean('TX2'), clean('TX3'), clean('TX4', 'fixed@x.vn')].map((x, i) => ({ ...x, line: i + 2 })),
    );
    // Only the failed one is queued again (same entry, new address); the others are reported row by row.
    expect(again.added).toEqual([e4]);
    expect(outbox.get(e4)).toMatchObject({ state: 'queued', receiverEmail: 'fixed@x.vn', errorCode: null });
    expect(again.skipped.map((x) => [x.line, x.transactionId, x.state])).toEqual([
      [2, 'TX1', 'sent'],
      [3, 'TX2', 'requested'],
      [4, 'TX3', 'unknown'],
    ]);
    expect(again.skipped[0]).toMatchObject({
      entryId: e1,
      receiverEmail: 'an@x.vn',
      reason: { en: 'TX1: already sent on 23/11 to an@x.vn: skipped', vi: 'TX1: đã gửi ngày 23/11 tới an@x.vn: bỏ qua' },
    });
    expect(outbox.list('sandbox').total).toBe(4);
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 1, requested: 1, unknown: 1, queued: 1 });
  });

  it('sends an invoice again only on an explicit resend, keeping each earlier outcome in the history', () => {
    const { added } = outbox.add('sandbox', [clean('TX1', 'an@x.vn')]);
    const id = added[0]!;
    const c1 = outbox.claim('sandbox', 5)!;
    outbox.settle({ token: c1.token, verdicts: new Map([[id, judgeItem(3, null)]]) });
    expect(outbox.requeue([id], 'retry')).toMatchObject({ changed: 0, skipped: 1, left: [{ id, state: 'sent' }] });
    expect(outbox.requeue([id], 'retry').left[0]!.reason.vi).toContain('chọn “Gửi lại”');
    // The CLI's --resend on add, with a new address: the same entry goes again.
    const resent = outbox.add('sandbox', [clean('TX1', 'moi@x.vn')], { resend: true });
    expect(resent).toMatchObject({ added: [id], skipped: [] });
    expect(outbox.requeue([id], 'resend')).toMatchObject({ changed: 0, left: [{ id, state: 'queued' }] }); // already waiting
    const c2 = outbox.claim('sandbox', 5)!;
    expect(c2.entries).toMatchObject([{ id, receiverEmail: 'moi@x.vn', attempts: 2 }]);
    outbox.markUnknown(c2, { en: 'reset', vi: 'ngắt kết nối' });
    expect(outbox.requeue([id], 'retry').changed).toBe(0); // unknown: not by a plain retry
    expect(outbox.requeue([id], 'retryUnknown').changed).toBe(1);
    const c3 = outbox.claim('sandbox', 5)!;
    outbox.settle({ token: c3.token, verdicts: new Map([[id, judgeItem(4, null)]]) });
    expect(outbox.requeue([id], 'resend')).toMatchObject({ changed: 1, left: [] });
    const h = outbox.history(id)!;
    expect(h.entry.state).toBe('queued');
    expect(h.attempts.map((a) => [a.state, a.receiverEmail])).toEqual([
      ['sent', 'an@x.vn'],
      ['unknown', 'moi@x.vn'],
      ['requested', 'moi@x.vn'],
    ]);
    expect(outbox.list('sandbox').total).toBe(1);
  });

  it('a cancelled entry whose earlier send may have arrived goes back only on resend', () => {
    const { added } = outbox.add('sandbox', [clean('TX1')]);
    const id = added[0]!;
    outbox.markUnknown(outbox.claim('sandbox', 5)!, { en: 'reset', vi: 'reset' });
    expect(outbox.cancel([id]).changed).toBe(1);
    expect(outbox.requeue([id], 'retry')).toMatchObject({ changed: 0, left: [{ id, state: 'cancelled' }] });
    expect(outbox.add('sandbox', [clean('TX1')]).skipped).toMatchObject([{ entryId: id, state: 'cancelled' }]);
    expect(outbox.requeue([id], 'resend').changed).toBe(1);
    expect(outbox.history(id)!.attempts.map((a) => a.state)).toEqual(['unknown', 'cancelled']);
  });

  it('claims one kind per batch, at most N, never the same TransactionID twice', () => {
    outbox.add('sandbox', [clean('A1'), clean('B1', 'a@x.vn', 'withoutCode'), clean('A2'), clean('A3'), clean('C1', 'a@x.vn', 'cashRegister')]);
    const c1 = outbox.claim('sandbox', 2)!;
    expect(c1.kind).toBe('withCode');
    expect(c1.entries.map((e) => e.transactionId)).toEqual(['A1', 'A2']);
    const c2 = outbox.claim('sandbox', 2)!;
    expect(c2.kind).toBe('withoutCode');
    const c3 = outbox.claim('sandbox', 2)!;
    expect(c3.kind).toBe('withCode');
    expect(c3.entries.map((e) => e.transactionId)).toEqual(['A3']);
    const c4 = outbox.claim('sandbox', 2)!;
    expect(c4.kind).toBe('cashRegister');
    expect(outbox.claim('sandbox', 2)).toBeNull();
    expect(outbox.counts('sandbox').sending).toBe(5);
  });

  it('release puts entries back with a due time; markUnknown leaves them for the user', () => {
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    const c = outbox.claim('sandbox', 1)!;
    outbox.release(c, clock + 5000, { en: 'offline', vi: 'offline' });
    expect(outbox.due('sandbox')).toEqual({ due: true, nextAt: clock + 5000 });
    expect(outbox.get(c.entries[0]!.id)).toMatchObject({ state: 'queued', attempts: 0, lastError: { en: 'offline' } });
    const d = outbox.claim('sandbox', 5)!;
    expect(d.entries.map((e) => e.transactionId)).toEqual(['A2']);
    outbox.markUnknown(d, { en: 'reset', vi: 'reset' });
    expect(outbox.get(d.entries[0]!.id)).toMatchObject({ state: 'unknown', attempts: 1 });
    clock += 6000;
    expect(outbox.claim('sandbox', 5)!.entries.map((e) => e.transactionId)).toEqual(['A1']);
  });

  it('recover turns entries left in `sending` by a dead process into `unknown`', () => {
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    const c = outbox.claim('sandbox', 5)!; // claimed and armed: the request leaves right after
    // A second Outbox over the same file = the app after a restart.
    const alive = new Outbox(store, { now: () => clock, claimAlive: () => true });
    expect(alive.recover()).toBe(0);
    const restarted = new Outbox(store, { now: () => clock, claimAlive: () => false });
    expect(restarted.recover()).toBe(2);
    expect(outbox.counts('sandbox')).toMatchObject({ unknown: 2, sending: 0 });
    // A late answer of the old claim changes nothing: it no longer holds its rows, and says so.
    expect(() => outbox.settle({ token: c.token, verdicts: new Map(c.entries.map((e) => [e.id, judgeItem(3, null)])) })).toThrow(/changed under this batch/);
    expect(outbox.counts('sandbox')).toMatchObject({ unknown: 2, sent: 0 });
  });

  it('recover reads the table only while the counts show entries being sent, of any profile', () => {
    const other = new ProfileService(store).add({ name: 'Cửa hàng 2', kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    outbox.add(other.id, [clean('B1')]);
    const prepared: string[] = [];
    const watched = (label: string) => {
      const o = new Outbox(store, { now: () => clock, claimAlive: () => false });
      const prepare = store.db.prepare.bind(store.db);
      store.db.prepare = ((sql: string) => (prepared.push(`${label}: ${sql}`), prepare(sql))) as typeof store.db.prepare;
      try {
        return o.recover();
      } finally {
        store.db.prepare = prepare;
      }
    };
    expect(watched('idle')).toBe(0);
    expect(prepared.filter((sql) => sql.includes('FROM email_outbox'))).toEqual([]);
    // Another profile's batch, armed by a process that is gone.
    outbox.claim(other.id, 5);
    expect(watched('after a crash')).toBe(1);
    expect(prepared.some((sql) => sql.startsWith('after a crash') && sql.includes('FROM email_outbox'))).toBe(true);
    expect(outbox.counts(other.id)).toMatchObject({ unknown: 1, sending: 0 });
    expect(outbox.counts('sandbox')).toMatchObject({ queued: 2, unknown: 0 });
  });

  it('recover puts a claim that was never armed (its request never left) back in the queue', () => {
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    outbox.claim('sandbox', 5);
    store.db.exec("UPDATE email_outbox SET claimed_at = NULL WHERE state = 'sending'");
    const restarted = new Outbox(store, { now: () => clock, claimAlive: () => false });
    expect(restarted.recover()).toBe(0);
    expect(outbox.counts('sandbox')).toMatchObject({ queued: 2, sending: 0, unknown: 0 });
    expect(outbox.list('sandbox').items.every((e) => e.attempts === 0)).toBe(true);
  });

  it('settling a batch and claiming the next commit together or not at all', () => {
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    const first = outbox.claim('sandbox', 1)!;
    const verdicts = new Map([[first.entries[0]!.id, judgeItem(3, null)]]);
    store.db.exec(
      "CREATE TEMP TRIGGER refuse_claim BEFORE UPDATE OF state ON email_outbox WHEN NEW.state = 'sending' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    expect(() => outbox.claim('sandbox', 1, { token: first.token, verdicts })).toThrow(/disk I\/O/);
    // Rolled back: the answered batch is still held (armed) by its claim, the next one still queued.
    expect(outbox.get(first.entries[0]!.id)).toMatchObject({ state: 'sending' });
    expect(outbox.counts('sandbox')).toMatchObject({ sending: 1, queued: 1, sent: 0 });
    store.db.exec('DROP TRIGGER refuse_claim');
    const second = outbox.claim('sandbox', 1, { token: first.token, verdicts })!;
    expect(second.entries.map((e) => e.transactionId)).toEqual(['A2']);
    expect(outbox.get(first.entries[0]!.id)).toMatchObject({ state: 'sent', sendEmailStatus: 3 });
    // The verdicts are written even when nothing else is due.
    const last = new Map([[second.entries[0]!.id, judgeItem(4, null)]]);
    expect(outbox.claim('sandbox', 1, { token: second.token, verdicts: last })).toBeNull();
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 1, requested: 1, sending: 0 });
  });

  it('retry, cancel, remove and update respect the states', () => {
    const { added } = outbox.add('sandbox', [clean('A1'), clean('A2'), clean('A3')]);
    const [a1, a2, a3] = added as [number, number, number];
    expect(outbox.requeue([a1], 'retry')).toMatchObject({ changed: 0, skipped: 1 }); // queued: nothing to retry
    expect(outbox.cancel([a1, a2])).toEqual({ changed: 2, skipped: 0 });
    expect(outbox.requeue([a1], 'retry')).toMatchObject({ changed: 1, skipped: 0 });
    const c = outbox.claim('sandbox', 5)!;
    expect(c.entries.map((e) => e.id).sort()).toEqual([a1, a3].sort());
    expect(outbox.remove([a1])).toEqual({ changed: 0, skipped: 1 }); // being sent
    expect(() => outbox.update(a1, { receiverEmail: 'z@x.vn' })).toThrow(/no longer be changed/);
    outbox.settle({
      token: c.token,
      verdicts: new Map([
        [a1, judgeItem(2, 'InvalidEmail')],
        [a3, judgeItem(3, null)],
      ]),
    });
    const edited = outbox.update(a1, { receiverEmail: 'z@x.vn, y@x.vn' });
    expect(edited.receiverEmail).toBe('z@x.vn;y@x.vn');
    expect(() => outbox.update(a1, { receiverEmail: 'nope' })).toThrow(/not a valid address/);
    expect(() => outbox.update(a3, { receiverEmail: 'z@x.vn' })).toThrow(/no longer be changed/);
    expect(outbox.requeue([a1, a3], 'retry')).toMatchObject({ changed: 1, skipped: 1 });
    expect(outbox.remove([a2, a3])).toEqual({ changed: 2, skipped: 0 });
  });

  it('lists with filter, search and sort', () => {
    outbox.add('sandbox', [clean('B-2', 'bob@x.vn'), clean('A-1', 'ann@x.vn'), clean('C-3', 'cat@x.vn')]);
    const c = outbox.claim('sandbox', 1)!;
    outbox.settle({ token: c.token, verdicts: new Map([[c.entries[0]!.id, judgeItem(2, 'InvalidEmail')]]) });
    expect(outbox.list('sandbox', { states: ['failed'] }).items.map((e) => e.transactionId)).toEqual(['B-2']);
    expect(outbox.list('sandbox', { search: 'ANN' }).items.map((e) => e.transactionId)).toEqual(['A-1']);
    expect(outbox.list('sandbox', { search: 'invalidemail' }).total).toBe(1);
    expect(outbox.list('sandbox', { sort: 'transactionId', dir: 'asc' }).items.map((e) => e.transactionId)).toEqual(['A-1', 'B-2', 'C-3']);
    expect(outbox.list('sandbox', { search: '%' }).total).toBe(0);
  });

  it('takes a query’s total from the state counts when it does not search, the same as counting its rows', () => {
    outbox.add('sandbox', [clean('B-2', 'bob@x.vn'), clean('A-1', 'ann@x.vn'), clean('C-3', 'cat@x.vn'), clean('D-4', 'dan@x.vn')]);
    const c = outbox.claim('sandbox', 2)!;
    outbox.settle({ token: c.token, verdicts: new Map(c.entries.map((e, i) => [e.id, judgeItem(i === 0 ? 2 : 3, i === 0 ? 'InvalidEmail' : null)])) });
    const counts = outbox.counts('sandbox');
    const queries = [
      {},
      { states: ['failed' as const] },
      { states: ['queued' as const, 'sent' as const] },
      { states: ['failed' as const, 'failed' as const] },
      { states: [] },
      { states: Array<'sent'>(8).fill('sent') },
    ];
    for (const q of queries) {
      const counted = outbox.list('sandbox', q);
      expect(counted.total).toBe(counted.items.length);
      expect(outbox.list('sandbox', q, counts).total).toBe(counted.total);
    }
    // A search counts its rows whatever counts it is given.
    expect(outbox.list('sandbox', { search: 'ann' }, counts).total).toBe(1);
  });

  it('a page in the far half (read from the other end) holds the same rows as the whole list has there, in every order and filter', () => {
    // Names repeat (ties are ordered by entry number), some entries failed: 37 rows, pages of 5.
    const names = ['Lan', 'an', 'Bình', 'Lan', 'Đức', 'bình'];
    const inputs = Array.from({ length: 37 }, (_, i) => {
      const r = checkInput({
        transactionId: `TX-${String((i * 17) % 37).padStart(2, '0')}`,
        receiverName: names[i % names.length]!,
        receiverEmail: `k${i % 4}@x.vn`,
        kind: 'withCode',
      });
      if (!r.ok) throw new Error(r.problem.en);
      return { input: r.value };
    });
    outbox.add('sandbox', inputs);
    const c = outbox.claim('sandbox', 9)!;
    outbox.settle({ token: c.token, verdicts: new Map(c.entries.map((e, i) => [e.id, judgeItem(i % 2 === 0 ? 2 : 3, i % 2 === 0 ? 'InvalidEmail' : null)])) });
    const counts = outbox.counts('sandbox');
    let farPages = 0;
    for (const sort of ['id', 'transactionId', 'receiverName', 'receiverEmail', 'kind', 'state', 'attempts', 'updatedAt'] as const) {
      for (const dir of ['asc', 'desc', undefined] as const) {
        for (const query of [{}, { states: ['queued' as const, 'failed' as const] }, { search: 'lan' }]) {
          const q = { ...query, sort, dir };
          const whole = outbox.list('sandbox', q).items.map((e) => e.id);
          for (let offset = 0; offset <= whole.length + 5; offset += 5) {
            for (const given of [counts, undefined]) {
              const page = outbox.list('sandbox', { ...q, offset, limit: 5 }, given);
              expect(page.total).toBe(whole.length);
              expect(
                page.items.map((e) => e.id),
                `${JSON.stringify(q)} from ${offset}`,
              ).toEqual(whole.slice(offset, offset + 5));
            }
            if (offset * 2 > whole.length) farPages++;
          }
        }
      }
    }
    expect(farPages).toBeGreaterThan(50);
  });
});

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
  it('refuses a TransactionID already waiting, but accepts it again once sent', () => {
    const first = outbox.add('sandbox', [clean('TX1')]);
    expect(first.added).toHaveLength(1);
    const again = outbox.add('sandbox', [clean('TX1')]);
    expect(again.added).toHaveLength(0);
    expect(again.rejected[0]?.reason).toContain('already');
    const claim = outbox.claim('sandbox', 10)!;
    outbox.settle({ token: claim.token, verdicts: new Map([[claim.entries[0]!.id, judgeItem(3, null)]]) });
    expect(outbox.add('sandbox', [clean('TX1')]).added).toHaveLength(1);
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
    outbox.release(c.token, clock + 5000, { en: 'offline', vi: 'offline' });
    expect(outbox.due('sandbox')).toEqual({ due: true, nextAt: clock + 5000 });
    expect(outbox.get(c.entries[0]!.id)).toMatchObject({ state: 'queued', attempts: 0, lastError: 'offline' });
    const d = outbox.claim('sandbox', 5)!;
    expect(d.entries.map((e) => e.transactionId)).toEqual(['A2']);
    outbox.markUnknown(d.token, { en: 'reset', vi: 'reset' });
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
    // A late answer of the old claim changes nothing.
    outbox.settle({ token: c.token, verdicts: new Map(c.entries.map((e) => [e.id, judgeItem(3, null)])) });
    expect(outbox.counts('sandbox')).toMatchObject({ unknown: 2, sent: 0 });
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

  it('recover takes a claim older than the lease as abandoned even when the pid lives', () => {
    outbox.add('sandbox', [clean('A1')]);
    outbox.claim('sandbox', 5);
    const other = new Outbox(store, { now: () => clock + 11 * 60_000, claimAlive: () => true });
    expect(other.recover()).toBe(1);
  });

  it('settling a batch and claiming the next commit together or not at all', () => {
    outbox.add('sandbox', [clean('A1'), clean('A2')]);
    const first = outbox.claim('sandbox', 1)!;
    const verdicts = new Map([[first.entries[0]!.id, judgeItem(3, null)]]);
    store.db.exec("CREATE TEMP TRIGGER refuse_claim BEFORE UPDATE OF state ON email_outbox WHEN NEW.state = 'sending' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
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
    expect(outbox.retry([a1])).toEqual({ changed: 0, skipped: 1 }); // queued: nothing to retry
    expect(outbox.cancel([a1, a2])).toEqual({ changed: 2, skipped: 0 });
    expect(outbox.retry([a1])).toEqual({ changed: 1, skipped: 0 });
    const c = outbox.claim('sandbox', 5)!;
    expect(c.entries.map((e) => e.id).sort()).toEqual([a1, a3].sort());
    expect(outbox.remove([a1])).toEqual({ changed: 0, skipped: 1 }); // being sent
    expect(() => outbox.update(a1, { receiverEmail: 'z@x.vn' })).toThrow(/no longer be changed/);
    outbox.settle({ token: c.token, verdicts: new Map([[a1, judgeItem(2, 'InvalidEmail')], [a3, judgeItem(3, null)]]) });
    const edited = outbox.update(a1, { receiverEmail: 'z@x.vn, y@x.vn' });
    expect(edited.receiverEmail).toBe('z@x.vn;y@x.vn');
    expect(() => outbox.update(a1, { receiverEmail: 'nope' })).toThrow(/not a valid address/);
    expect(() => outbox.update(a3, { receiverEmail: 'z@x.vn' })).toThrow(/no longer be changed/);
    expect(outbox.retry([a1, a3])).toEqual({ changed: 1, skipped: 1 });
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
});

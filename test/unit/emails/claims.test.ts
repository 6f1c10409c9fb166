import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newOwnerToken, ownerAlive, processIdentity } from '../../../main/services/store/owner';
import { checkInput } from '../../../main/services/emails/input';
import { judgeItem } from '../../../main/services/emails/judge';
import { Outbox } from '../../../main/services/emails/outbox';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let first: Store;
let second: Store;
let clock = 1_000_000;

function clean(id: string) {
  const r = checkInput({ transactionId: id, receiverEmail: 'a@example.com', kind: 'withCode' });
  if (!r.ok) throw new Error(r.problem.en);
  return { input: r.value };
}

beforeEach(() => {
  tmp = makeTempDir('einvoice-claims-');
  first = openDatabase(tmp.dir);
  new ProfileService(first);
  second = openDatabase(tmp.dir);
  clock = 1_000_000;
});
afterEach(() => {
  first.close();
  second.close();
  tmp.cleanup();
});

describe('a claim is never taken over from a live owner', () => {
  it("a clock jump of +1 h in the middle of a batch: the second process leaves the live owner's claim alone, the owner settles it", () => {
    const owner = new Outbox(first, { now: () => clock });
    // The other process on the same database file: the owner is alive.
    const other = new Outbox(second, { now: () => clock, claimAlive: () => true });
    owner.add('sandbox', [clean('A1'), clean('A2')]);
    const claim = owner.claim('sandbox', 10)!;
    clock += 60 * 60_000;
    expect(other.recover()).toBe(0);
    expect(other.claim('sandbox', 10)).toBeNull();
    expect(other.counts('sandbox')).toMatchObject({ sending: 2, unknown: 0, queued: 0 });
    owner.settle({ token: claim.token, verdicts: new Map(claim.entries.map((e) => [e.id, judgeItem(3, null)])) });
    expect(other.counts('sandbox')).toMatchObject({ sent: 2, sending: 0, unknown: 0 });
  });

  it('settling checks ownership in the same statement: rows changed = rows expected, or nothing is written', () => {
    const owner = new Outbox(first, { now: () => clock });
    owner.add('sandbox', [clean('B1'), clean('B2')]);
    const claim = owner.claim('sandbox', 10)!;
    // Someone else took one of the rows (the recovery of a process that thought the owner dead).
    second.transaction(() => {
      second.db.prepare("UPDATE email_outbox SET state = 'unknown', claim_token = NULL WHERE id = ?").run(claim.entries[0]!.id);
      second.db.exec("UPDATE email_state_counts SET n = n + CASE state WHEN 'unknown' THEN 1 ELSE -1 END WHERE state IN ('sending', 'unknown')");
    });
    expect(() => owner.settle({ token: claim.token, verdicts: new Map(claim.entries.map((e) => [e.id, judgeItem(3, null)])) })).toThrow(
      /changed under this batch/,
    );
    expect(owner.counts('sandbox')).toMatchObject({ unknown: 1, sending: 1, sent: 0 });
  });

  it("a claim records its owner's identity, so a reused pid is not the owner", () => {
    const identity = processIdentity(process.ppid);
    const token = newOwnerToken();
    expect(ownerAlive(token)).toBe(true);
    expect(ownerAlive(`${process.ppid}:0123456789abcdef`)).toBe(true);
    if (identity === '') return; // no /proc: the bare pid decides (kept, never taken)
    expect(token.split(':')).toHaveLength(3);
    expect(ownerAlive(`${process.ppid}:0123456789abcdef:${identity}`)).toBe(true);
    expect(ownerAlive(`${process.ppid}:0123456789abcdef:${identity.split('.')[0]}.1`)).toBe(false);
    expect(ownerAlive('999999999:0123456789abcdef')).toBe(false);
  });
});

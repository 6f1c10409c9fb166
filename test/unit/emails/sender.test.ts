import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SendEmailParameter } from '../../../common/model';
import { apiErrors, type SendEmailOutcome } from '../../../main/services/api';
import { checkInput } from '../../../main/services/emails/input';
import { Outbox } from '../../../main/services/emails/outbox';
import { EmailSender, type SenderDeps } from '../../../main/services/emails/sender';
import { ProfileService } from '../../../main/services/profiles';
import { DATABASE_FILE_NAME, openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

/**
 * The sender's state machine with the service call injected as a function (the sandbox-backed
 * integration tests cover the real HTTP path); every database write is real.
 */
let tmp: { dir: string; cleanup: () => void };
let store: Store;
let outbox: Outbox;
const session = { profile: { id: 'sandbox' } };

beforeEach(() => {
  tmp = makeTempDir('einvoice-sender-');
  store = openDatabase(tmp.dir);
  new ProfileService(store);
  outbox = new Outbox(store, { claimAlive: () => true });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

function enqueue(ids: string[], kind: 'withCode' | 'withoutCode' | 'cashRegister' = 'withCode') {
  outbox.add(
    'sandbox',
    ids.map((id) => {
      const r = checkInput({ transactionId: id, receiverEmail: 'a@example.com', kind });
      if (!r.ok) throw new Error(r.problem.en);
      return { input: r.value };
    }),
  );
}

type Send = SenderDeps<typeof session>['send'];
const item = (id: string, status: number, code = '') => ({
  transactionId: id,
  refId: null,
  refDetailId: null,
  status: status as 0,
  errorCode: code || null,
  ok: !code && status >= 3,
  raw: {},
});
const outcome = (items: ReturnType<typeof item>[], extra: Partial<SendEmailOutcome> = {}): SendEmailOutcome => ({
  items,
  envelopeSuccess: false,
  callErrorCode: null,
  callErrorDescription: null,
  ...extra,
});

function sender(send: Send, extra: Partial<SenderDeps<typeof session>> = {}) {
  return new EmailSender<typeof session>({
    outbox,
    activeProfileId: () => 'sandbox',
    ready: async () => session,
    reportAuthFailure: () => {},
    send,
    batchSize: () => 3,
    backoffBaseMs: 10_000,
    ...extra,
  });
}
/** Counts the transactions that commit (nested ones are savepoints of these). */
function countCommits(): { count: () => number; restore: () => void } {
  const real = store.transaction;
  let depth = 0;
  let commits = 0;
  store.transaction = ((fn) => {
    if (depth++ === 0) commits++;
    try {
      return real(fn);
    } finally {
      depth--;
    }
  }) as Store['transaction'];
  return { count: () => commits, restore: () => (store.transaction = real) };
}
const byTx = () => new Map(outbox.list('sandbox').items.map((e) => [e.transactionId, e]));

describe('EmailSender', () => {
  it('one kind per request, batches of N, each item judged alone (success:false + status 3 = sent); lanes: 1 keeps one request in flight', async () => {
    enqueue(['A1', 'A2', 'A3', 'A4']);
    enqueue(['C1'], 'cashRegister');
    enqueue(['K1'], 'withoutCode');
    const bodies: SendEmailParameter[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const s = sender(
      async (_s, p) => {
        bodies.push(p);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return outcome(
          p.SendEmailDatas.map((d) =>
            item(d.TransactionID, d.TransactionID === 'A2' ? 2 : d.TransactionID.endsWith('4') ? 4 : 3, d.TransactionID === 'A2' ? 'InvalidEmail' : ''),
          ),
        );
      },
      { lanes: 1 },
    );
    await s.flush();
    expect(maxInFlight).toBe(1);
    expect(bodies.map((b) => [b.SendEmailDatas.map((d) => d.TransactionID), b.IsInvoiceCode, b.IsInvoiceCalculatingMachine])).toEqual([
      [['A1', 'A2', 'A3'], true, false],
      [['A4'], true, false],
      [['C1'], true, true],
      [['K1'], false, false],
    ]);
    const m = byTx();
    expect(m.get('A1')).toMatchObject({ state: 'sent', sendEmailStatus: 3 });
    expect(m.get('A2')).toMatchObject({ state: 'failed', errorCode: 'InvalidEmail', sendEmailStatus: 2 });
    expect(m.get('A4')).toMatchObject({ state: 'requested' });
    expect(s.senderStatus().state).toBe('idle');
  });

  it('writes one transaction per batch: the verdicts of an answer go with the claim of the next batch', async () => {
    enqueue(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    const commits = countCommits();
    const seenSending: number[] = [];
    const s = sender(
      async (_s, p) => {
        // While a batch is out, the one before it is already recorded.
        seenSending.push(outbox.counts('sandbox').sending);
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      { lanes: 1 },
    );
    try {
      await s.flush();
    } finally {
      commits.restore();
    }
    expect(seenSending).toEqual([3, 3, 1]);
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 7, sending: 0 });
    // 3 batches: three claims (the 2nd and 3rd settle the batch before) and the last settle.
    expect(commits.count()).toBe(4);
  });

  it('an answer that may have reached the service leaves the batch unknown and never re-sends it', async () => {
    enqueue(['A1', 'A2']);
    let calls = 0;
    const s = sender(async () => {
      calls++;
      throw apiErrors.unknownOutcome('socket hang up');
    });
    await s.flush();
    await s.flush();
    expect(calls).toBe(1);
    expect(outbox.counts('sandbox')).toMatchObject({ unknown: 2, queued: 0, sending: 0 });
    expect(byTx().get('A1')!.lastError?.en).toContain('may or may not');
  });

  it('an item missing from the answer is unknown; a call-level code fails the missing ones', async () => {
    enqueue(['A1', 'A2', 'A3']);
    const s = sender(async () => outcome([item('A1', 3)]));
    await s.flush();
    expect(byTx().get('A2')!.state).toBe('unknown');
    enqueue(['B1', 'B2']);
    const t = sender(async () => outcome([item('B1', 3)], { callErrorCode: 'LicenseInfo_OutOfInvoice' }));
    await t.flush();
    expect(byTx().get('B2')).toMatchObject({ state: 'failed', errorCode: 'LicenseInfo_OutOfInvoice', retryable: false });
  });

  it('429 puts the batch back with the Retry-After delay and backs off', async () => {
    enqueue(['A1', 'A2', 'A3', 'A4', 'A5']);
    const before = Date.now();
    let calls = 0;
    const s = sender(
      async () => {
        calls++;
        throw apiErrors.rateLimited(30_000, { operation: 'sendemail', httpStatus: 429 });
      },
      { random: () => 1 },
    );
    await s.flush();
    expect(calls).toBe(1);
    const all = outbox.list('sandbox').items;
    expect(all.every((e) => e.state === 'queued' && e.attempts === 0)).toBe(true);
    const batch = all.filter((e) => ['A1', 'A2', 'A3'].includes(e.transactionId));
    expect(batch.every((e) => e.nextAttemptAt !== null && Date.parse(e.nextAttemptAt) >= before + 30_000)).toBe(true);
    expect(s.senderStatus().state).toBe('backoff');
    expect(Date.parse(s.senderStatus().nextAttemptAt!)).toBeGreaterThanOrEqual(before + 30_000);
    await s.stop();
  });

  it('InvoiceQuantityTooLarge halves the batch and sends again', async () => {
    enqueue(['A1', 'A2', 'A3', 'A4']);
    const sizes: number[] = [];
    const s = sender(
      async (_s, p) => {
        sizes.push(p.SendEmailDatas.length);
        if (p.SendEmailDatas.length > 2) throw apiErrors.rejected('InvoiceQuantityTooLarge', null, { operation: 'sendemail' });
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      { batchSize: () => 4 },
    );
    await s.flush();
    expect(sizes).toEqual([4, 2, 2]);
    expect(outbox.counts('sandbox').sent).toBe(4);
  });

  it('an auth refusal pauses (nothing lost) and sending resumes after the next sign-in', async () => {
    enqueue(['A1', 'A2']);
    let signedIn = true;
    let wake: (() => void) | undefined;
    let reported = 0;
    const s = sender(
      async (_s, p) => {
        if (!signedIn) throw apiErrors.auth({ operation: 'sendemail', serviceCode: 'TokenExpiredCode' });
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      {
        ready: () => (signedIn ? Promise.resolve(session) : new Promise((r) => (wake = () => r(session)))),
        reportAuthFailure: () => {
          reported++;
          signedIn = false;
        },
      },
    );
    signedIn = false;
    const first = sender(
      async () => {
        throw apiErrors.auth({ operation: 'sendemail', serviceCode: 'TokenExpiredCode' });
      },
      { reportAuthFailure: () => void reported++, ready: () => Promise.resolve(session) },
    );
    // One refusal: entries back in the queue, the gate told.
    const once = first.flush();
    await new Promise((r) => setTimeout(r, 50));
    await first.stop();
    await once;
    expect(reported).toBeGreaterThan(0);
    expect(outbox.counts('sandbox')).toMatchObject({ queued: 2, sending: 0 });
    // Signed out: the sender waits in ready() (paused) until the sign-in.
    const flushing = s.flush();
    await new Promise((r) => setTimeout(r, 1_800));
    expect(s.senderStatus().state).toBe('paused');
    expect(outbox.counts('sandbox').queued).toBe(2);
    signedIn = true;
    wake?.();
    await flushing;
    expect(outbox.counts('sandbox').sent).toBe(2);
  });

  it('an unexpected exception after the request may have left counts as unknown', async () => {
    enqueue(['A1']);
    const s = sender(async () => {
      throw new TypeError('boom');
    });
    await s.flush();
    expect(byTx().get('A1')!.state).toBe('unknown');
  });

  it('offline: the batch goes back and the sender waits', async () => {
    enqueue(['A1', 'A2', 'A3', 'A4']);
    let checks = 0;
    const s = sender(
      async () => {
        throw apiErrors.offline('127.0.0.1:9', 'ECONNREFUSED');
      },
      { checkConnectivity: () => void checks++ },
    );
    await s.flush();
    expect(checks).toBe(1);
    expect(s.senderStatus().state).toBe('offline');
    expect(outbox.counts('sandbox')).toMatchObject({ queued: 4, sending: 0 });
    await s.stop();
  });
});

describe('when recording "unknown" fails, the claim stays armed', () => {
  it('the database refuses the unknown write: nothing goes back to queued, nothing is sent again, a restart finds it unknown', async () => {
    enqueue(['U1', 'U2']);
    let calls = 0;
    const logged: string[] = [];
    const s = sender(
      async () => {
        calls++;
        throw apiErrors.unknownOutcome('connection reset after the request left', { operation: 'sendemail' });
      },
      { log: (_level, line) => logged.push(line) },
    );
    store.db.exec(
      "CREATE TRIGGER refuse_unknown BEFORE UPDATE OF state ON email_outbox WHEN NEW.state IN ('unknown', 'queued') BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    await s.flush();
    await s.flush();
    expect(calls).toBe(1);
    expect(logged.join('\n')).toMatch(/disk I\/O error/);
    const left = outbox.list('sandbox').items;
    expect(left.map((e) => e.state)).toEqual(['sending', 'sending']);
    await s.stop();
    store.db.exec('DROP TRIGGER refuse_unknown');
    // The next start: the owner is gone, the claim was armed → unknown, never queued again.
    const restarted = new Outbox(store, { claimAlive: () => false });
    expect(restarted.recover()).toBe(2);
    expect(restarted.counts('sandbox')).toMatchObject({ unknown: 2, queued: 0, sending: 0 });
    const after = new EmailSender<typeof session>({
      outbox: restarted,
      activeProfileId: () => 'sandbox',
      ready: async () => session,
      reportAuthFailure: () => {},
      send: async () => {
        calls++;
        return outcome([]);
      },
      batchSize: () => 3,
    });
    await after.flush();
    expect(calls).toBe(1);
  });
});

describe('several requests in flight (lanes)', () => {
  it('the first request goes alone; then up to `lanes` are in flight, each sent only after its arm is committed, their commits shared', async () => {
    enqueue(Array.from({ length: 30 }, (_, i) => `L${i}`));
    // Another connection sees only what is committed.
    const other = new DatabaseSync(path.join(tmp.dir, DATABASE_FILE_NAME), { readOnly: true });
    const commits = countCommits();
    const inFlightAtSend: number[] = [];
    let inFlight = 0;
    // The answers of the requests out at the same moment come back together.
    let answering: Promise<void> | null = null;
    const answer = () => (answering ??= new Promise<void>((r) => setTimeout(r, 5)).then(() => void (answering = null)));
    const s = sender(
      async (_s, p) => {
        const ids = p.SendEmailDatas.map((d) => d.TransactionID);
        const rows = other.prepare(`SELECT state, claimed_at FROM email_outbox WHERE transaction_id IN (${ids.map(() => '?').join(', ')})`).all(...ids);
        expect(rows.map((r) => [r.state, r.claimed_at !== null])).toEqual(ids.map(() => ['sending', true]));
        inFlightAtSend.push(++inFlight);
        await answer();
        inFlight--;
        return outcome(ids.map((id) => item(id, 3)));
      },
      { lanes: 3 },
    );
    try {
      await s.flush();
    } finally {
      commits.restore();
      other.close();
    }
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 30, sending: 0 });
    expect(inFlightAtSend).toHaveLength(10);
    expect(inFlightAtSend[0]).toBe(1);
    expect(Math.max(...inFlightAtSend)).toBe(3);
    // 10 batches, one transaction each would be 11 (with the last settle); the lanes share them:
    // 1 alone, then 3, 3, 3 arms each with the settles of the answers before, then the last settles.
    expect(commits.count()).toBe(5);
  });

  it('a refused sign-in at full width stops every lane, is reported once and loses nothing; a 429 stops them all too', async () => {
    enqueue(Array.from({ length: 30 }, (_, i) => `R${i}`));
    let calls = 0;
    let reported = 0;
    const s = sender(
      async (_s, p) => {
        calls++;
        await new Promise((r) => setTimeout(r, 5));
        if (calls > 1) throw apiErrors.auth({ operation: 'sendemail', serviceCode: 'TokenExpiredCode' });
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      {
        lanes: 3,
        reportAuthFailure: () => void reported++,
        // After the refusal: signed out until stopped.
        ready: (signal) =>
          reported === 0 ? Promise.resolve(session) : new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
      },
    );
    const flushing = s.flush();
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(4);
    expect(reported).toBe(1);
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 3, queued: 27, sending: 0 });
    await s.stop(0);
    await flushing;

    let more = 0;
    const t = sender(
      async (_s, p) => {
        more++;
        await new Promise((r) => setTimeout(r, 5));
        if (more > 1) throw apiErrors.rateLimited(30_000, { operation: 'sendemail', httpStatus: 429 });
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      { lanes: 3 },
    );
    await t.flush();
    expect(more).toBe(4);
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 6, queued: 24, sending: 0 });
    expect(t.senderStatus().state).toBe('backoff');
    await t.stop();
  });

  it('an answer that came back is recorded even when the shared commit that carried it fails', async () => {
    enqueue(Array.from({ length: 6 }, (_, i) => `G${i}`));
    const realClaim = outbox.claim.bind(outbox);
    let claims = 0;
    // The commit that would settle the first answer and arm the next batch fails (a busy or full disk).
    outbox.claim = ((...args: Parameters<Outbox['claim']>) => {
      if (++claims === 2) throw new Error('database is locked');
      return realClaim(...args);
    }) as Outbox['claim'];
    let calls = 0;
    const s = sender(
      async (_s, p) => {
        calls++;
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      { lanes: 1 },
    );
    await s.flush();
    // The first batch is recorded as sent (not left 'sending' until a restart calls it unknown); each batch went once.
    const counts = outbox.counts('sandbox');
    expect(counts).toMatchObject({ sending: 0, unknown: 0 });
    expect(counts.sent).toBeGreaterThanOrEqual(3);
    expect(counts.sent + counts.queued).toBe(6);
    expect(calls).toBe(counts.sent / 3);
    await s.stop();
  });

  it('a refused sign-in on one lane stops the others claiming while it is reported, and their answers are still recorded', async () => {
    enqueue(Array.from({ length: 30 }, (_, i) => `A${i}`));
    let calls = 0;
    let releaseReport: () => void = () => {};
    const s = sender(
      async (_s, p) => {
        const n = ++calls;
        // The second request is refused at once; the third and fourth answer while the refusal is being reported.
        if (n === 2) throw apiErrors.auth({ operation: 'sendemail', serviceCode: 'TokenExpiredCode' });
        await new Promise((r) => setTimeout(r, n === 1 ? 1 : 20));
        return outcome(p.SendEmailDatas.map((d) => item(d.TransactionID, 3)));
      },
      {
        lanes: 3,
        // Reporting the refusal takes a while (it may try to renew the token first).
        reportAuthFailure: () => new Promise<void>((r) => (releaseReport = r)),
        ready: (signal) =>
          calls < 2 ? Promise.resolve(session) : new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
      },
    );
    const flushing = s.flush();
    await new Promise((r) => setTimeout(r, 150));
    // 1 alone, then 3 lanes: one refused, two answered; nobody claimed after the refusal.
    expect(calls).toBe(4);
    expect(outbox.counts('sandbox')).toMatchObject({ sent: 9, queued: 21, sending: 0 });
    releaseReport();
    await s.stop(0);
    await flushing;
    expect(calls).toBe(4);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { EmailQueueStatus } from '../../../common/calls/emails';
import { startHarness, sentCounts, waitFor, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const done = (s: EmailQueueStatus) => s.counts.sent + s.counts.requested + s.counts.sendingAtService + s.counts.failed + s.counts.unknown;

describe('email queue against the sandbox', () => {
  it('queues 50 entries offline and sends them all, without a click, once the service is back', async () => {
    h = await startHarness();
    const { sandbox, emails, bus } = h;
    await waitFor(() => h!.connections.connectivity.online, 10_000, 'online');
    await sandbox.stop();
    await waitFor(() => !h!.connections.connectivity.online, 10_000, 'offline');
    const ids = sandbox.catalogue.list('withCode').slice(0, 30);
    const ids2 = sandbox.catalogue.list('withoutCode').slice(0, 20);
    const r = emails.add([
      ...ids.map((id) => ({ transactionId: id, receiverEmail: `c-${id}@example.com`, kind: 'withCode' as const })),
      ...ids2.map((id) => ({ transactionId: id, receiverEmail: `c-${id}@example.com, x@example.org`, kind: 'withoutCode' as const })),
    ]);
    expect(r.added).toHaveLength(50);
    await new Promise((res) => setTimeout(res, 500));
    expect(emails.status().counts.queued).toBe(50);
    expect(sandbox.sentEmails()).toHaveLength(0);

    const events: EmailQueueStatus[] = [];
    bus.on('emails.changed', (s) => events.push(s));
    await sandbox.start();
    await waitFor(() => done(emails.status()) === 50, 20_000, 'all 50 sent');
    const s = emails.status();
    expect(s.counts.failed + s.counts.unknown).toBe(0);
    const counts = sentCounts(sandbox);
    expect(counts.size).toBe(50);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // One kind per request: every sendemail request carried one kind (the sandbox answers
    // InvoiceNotExist for an invoice of another kind, so zero failures proves it).
    const expected4 = [...ids, ...ids2].filter((id) => sandbox.catalogue.expectedEmailStatus(id) === 4).length;
    expect(s.counts.requested).toBe(expected4);
    expect(s.counts.sent).toBe(50 - expected4);
    // Addresses normalised to `;`.
    const mail = sandbox.sentEmails().find((e) => e.TransactionID === ids2[0]);
    expect(mail?.to).toEqual([`c-${ids2[0]}@example.com`, 'x@example.org']);
    await waitFor(() => events.some((e) => done(e) === 50), 2_000, 'an emails.changed event with the final counts');
  });

  it('judges each invoice alone: success:false with status 3 is sent, bad ones fail alone with their reason, status 4 is requested', async () => {
    h = await startHarness({ sandbox: { quirks: { emailEnvelopeFailure: true } } });
    const { sandbox, emails } = h;
    const list = sandbox.catalogue.list('withCode');
    const three = list.find((id) => sandbox.catalogue.expectedEmailStatus(id) === 3)!;
    const four = list.find((id) => sandbox.catalogue.expectedEmailStatus(id) === 4)!;
    const other = list.find((id) => id !== three && id !== four)!;
    // An address our check lets through but the service refuses goes in through the repository.
    const r = emails.add([
      { transactionId: three, receiverEmail: 'ok@example.com', kind: 'withCode' },
      { transactionId: four, receiverEmail: 'ok@example.com', kind: 'withCode' },
      { transactionId: 'NO-SUCH-INVOICE-1', receiverEmail: 'ok@example.com', kind: 'withCode' },
      { transactionId: other, receiverEmail: 'not an address', kind: 'withCode' },
    ]);
    expect(r.added).toHaveLength(3);
    expect(r.rejected).toMatchObject([{ index: 3, transactionId: other }]);
    expect(r.rejected[0]!.reason.en).toContain('not an address');
    emails.outbox.add('sandbox', [
      { input: { transactionId: other, receiverName: '', receiverEmail: 'bad@x', ccEmail: '', bccEmail: '', replyEmail: '', kind: 'withCode' } },
    ]);
    await waitFor(() => emails.status().counts.queued === 0 && emails.status().counts.sending === 0, 15_000, 'flushed');
    const byTx = new Map(emails.list({}).items.map((e) => [e.transactionId, e]));
    expect(byTx.get(three)).toMatchObject({ state: 'sent', sendEmailStatus: 3, errorCode: null });
    expect(byTx.get(four)).toMatchObject({ state: 'requested', sendEmailStatus: 4 });
    expect(byTx.get('NO-SUCH-INVOICE-1')).toMatchObject({ state: 'failed', errorCode: 'InvoiceNotExist', retryable: false });
    expect(byTx.get('NO-SUCH-INVOICE-1')!.lastError?.vi).toContain('Không có hóa đơn nào thuộc loại đã chọn mang mã tra cứu này');
    expect(byTx.get(other)).toMatchObject({ state: 'failed', sendEmailStatus: 2, errorCode: 'InvalidEmail' });
    expect(byTx.get(other)!.lastError?.en).toContain('InvalidEmail');
  });

  it('pauses on an auth error and resumes after a new sign-in, losing nothing', async () => {
    h = await startHarness();
    const { sandbox, emails, connections } = h;
    await connections.auth.signInWithToken(undefined, 'not-a-valid-token');
    const ids = sandbox.catalogue.list('withCode').slice(0, 5);
    emails.add(ids.map((id) => ({ transactionId: id, receiverEmail: 'a@example.com', kind: 'withCode' as const })));
    await waitFor(() => emails.sender.senderStatus().state === 'paused', 10_000, 'paused');
    expect((await connections.auth.status()).state).toBe('paused');
    expect(emails.status().counts.queued).toBe(5);
    expect(sandbox.sentEmails()).toHaveLength(0);
    await connections.auth.signInWithToken(undefined, sandbox.devToken);
    await waitFor(() => emails.status().counts.sent + emails.status().counts.requested === 5, 10_000, 'sent after sign-in');
    expect(sentCounts(sandbox).size).toBe(5);
  });

  it('backs off on 429/503 and never re-sends after resets and timeouts: unknown entries wait for the user', async () => {
    h = await startHarness({ emails: { sendTimeoutMs: 700 }, sandbox: { seed: 7 } });
    const { sandbox, emails } = h;
    await h.connections.settings.update({ batchSizes: { email: 5 } });
    sandbox.setFaults({ sendemail: { status429: 0.15, retryAfterS: 0, status503: 0.15, reset: 0.15, hang: 0.1, malformed: 0.05, truncated: 0.05 } });
    const ids = [...sandbox.catalogue.list('withCode').slice(0, 60), ...sandbox.catalogue.list('cashRegister').slice(0, 40)];
    const kindOf = (id: string) => (sandbox.catalogue.kindOf(id) === 'cashRegister' ? 'cashRegister' : 'withCode') as 'cashRegister' | 'withCode';
    emails.add(ids.map((id) => ({ transactionId: id, receiverEmail: 'a@example.com', kind: kindOf(id) })));
    await waitFor(
      () => {
        const c = emails.status().counts;
        return c.queued === 0 && c.sending === 0;
      },
      60_000,
      'queue drained',
    );
    const all = emails.list({}).items;
    expect(all).toHaveLength(100); // nothing lost
    const counts = sentCounts(sandbox);
    for (const [, n] of counts) expect(n).toBe(1); // never acknowledged twice
    for (const e of all) {
      if (e.state === 'sent' || e.state === 'requested') expect(counts.get(e.transactionId)).toBe(1);
      expect(['sent', 'requested', 'unknown']).toContain(e.state);
    }
    const unknown = all.filter((e) => e.state === 'unknown');
    expect(unknown.length).toBeGreaterThan(0); // resets/timeouts happened and were not retried
    expect(all.some((e) => e.attempts === 1 && (e.state === 'sent' || e.state === 'requested'))).toBe(true);
    const throttled = sandbox.requests({ op: 'sendemail' }).filter((r) => r.status === 429 || r.status === 503).length;
    expect(throttled).toBeGreaterThan(0);
    // The user decides: a plain retry leaves them alone; "send again" sends them, with the faults gone.
    sandbox.setFaults({});
    expect(emails.retry(unknown.map((e) => e.id)).changed).toBe(0);
    emails.resend(unknown.map((e) => e.id));
    await waitFor(() => emails.status().counts.sent + emails.status().counts.requested === 100, 20_000, 'all sent after retry');
  }, 90_000);
});

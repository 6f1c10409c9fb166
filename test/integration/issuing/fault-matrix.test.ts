import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind } from '../../../main/sandbox';
import { recordHardening } from '../../support/hardening-report';
import { startIssuing, waitFor, type IssuingHarness } from './harness';

/**
 * Every fault of the sandbox on the issue operation, once: the queue must end with exactly one
 * invoice per RefID at the service and a record that agrees with it. Faults after the handler ran
 * (reset, hang, a bare 500, a cut or unreadable answer) leave the outcome unknown; it is settled
 * by asking the service by RefID, never by sending again.
 */
const FAULTS = FAULT_KINDS;
const AFTER_RECORD: readonly FaultKind[] = ['hang', 'reset', 'malformed', 'truncated', 'wrongTypes', 'emptyData', 'late500'];

let h: IssuingHarness;
let n = 0;

beforeAll(async () => {
  h = await startIssuing({ issuing: { issueTimeoutMs: 800 } });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('fault matrix of the issue operation, through the issue queue', () => {
  it.each(FAULTS)(
    'one %s: exactly one invoice per RefID, and the record agrees with the service',
    async (fault) => {
      const { services, sandbox } = h;
      const profile = services.session.profileId();
      sandbox.setFaults({ issue: { [fault]: 1, limit: 1, retryAfterS: 0 } });
      const entries = [0, 1].map(() => services.issuing.queueDraft(h.draft(n++)));
      await waitFor(() => entries.every((e) => services.issuing.queue.get(e.id)!.state === 'issued'), 30_000, `issued after ${fault}`);
      for (const e of entries) {
        const mine = services.issuing.queue.get(e.id)!;
        const theirs = sandbox.issued().filter((i) => i.RefID === e.refId);
        expect(theirs, `${fault} ${e.refId}`).toHaveLength(1);
        expect(sandbox.issueAttempts(e.refId)[0]?.recorded).toBe(1);
        expect(mine.transactionId).toBe(theirs[0]!.TransactionID);
        expect(mine.invNo).toBe(theirs[0]!.InvNo);
      }
      // After the invoice was recorded nothing is sent again; a fault before it costs one more request.
      for (const e of entries) expect(sandbox.issueAttempts(e.refId)[0]?.requests, fault).toBe(AFTER_RECORD.includes(fault) ? 1 : 2);
      expect(services.issuing.queue.counts(profile).unknown).toBe(0);
    },
    60_000,
  );

  it('never overlapped two requests on a series, and records the figures', () => {
    expect(h.sandbox.overlaps()).toBe(0);
    recordHardening('issuing-faults', { issueFaultsTried: FAULTS.length, issuedTwice: 0 });
  });
});

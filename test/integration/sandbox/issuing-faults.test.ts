import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { call, headers } from './helpers';
import { NOW, issue, issueBody, issuingData, postIssue, resultItems, status } from './issuing-support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 150, seed: 11, now: () => new Date(NOW) });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once the sandbox has read `n` issue requests (so the next one overlaps them). */
async function arrived(n: number): Promise<void> {
  for (let i = 0; i < 200 && sb.requests({ op: 'issue' }).length < n; i++) await sleep(5);
  expect(sb.requests({ op: 'issue' }).length).toBeGreaterThanOrEqual(n);
}

describe('overlapping requests on one series', () => {
  it('issueProcessingMs: the later request gets InvoiceNumberNotCotinuous for the held series only', async () => {
    sb.setQuirks({ issueProcessingMs: 300 });
    const a = issuingData();
    const first = postIssue(sb, issueBody(sb, [a]));
    await arrived(1);
    const b = issuingData();
    const other = issuingData({ InvSeries: '1K26TAA' });
    const t0 = performance.now();
    const second = await postIssue(sb, issueBody(sb, [b, other]));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    const [ib, iother] = resultItems(second.env);
    expect(ib).toMatchObject({ RefID: b.RefID, ErrorCode: 'InvoiceNumberNotCotinuous', TransactionID: null, InvNo: null });
    expect(iother!.ErrorCode).toBe('');
    const [ia] = resultItems((await first).env);
    expect(ia!.ErrorCode).toBe('');
    expect(sb.overlaps()).toBe(1);
    expect(sb.issued().map((i) => i.RefID)).toEqual(expect.arrayContaining([a.RefID, other.RefID]));
    expect(sb.issueAttempts(b.RefID)).toEqual([{ RefID: b.RefID, requests: 1, recorded: 0 }]);
    // Once both replies are written the series is free again.
    sb.setQuirks({ issueProcessingMs: 0 });
    expect((await issue(sb, [b]))[0]!.ErrorCode).toBe('');
    expect(sb.overlaps()).toBe(1);
  });

  it('injected latency holds the series too; one request after the other never overlaps', async () => {
    sb.setFaults('issue:latency=250');
    const first = postIssue(sb, issueBody(sb, [issuingData({ InvSeries: '1C26MAA' })], { signType: 5 }));
    await arrived(1);
    const second = await postIssue(sb, issueBody(sb, [issuingData({ InvSeries: '1C26MAA' })], { signType: 5 }));
    expect(resultItems(second.env)[0]!.ErrorCode).toBe('InvoiceNumberNotCotinuous');
    expect(resultItems((await first).env)[0]!.ErrorCode).toBe('');
    sb.reset();
    for (let i = 0; i < 5; i++) expect((await issue(sb, [issuingData({ InvSeries: '1C26MAA' })], { signType: 5 }))[0]!.ErrorCode).toBe('');
    expect(sb.overlaps()).toBe(0);
  });

  it('a request that hangs holds its series until the client gives up', async () => {
    sb.setFaults('issue:hang=1:limit=1');
    const hung = issuingData();
    const ctl = new AbortController();
    const pending = fetch(sb.baseUrl, { method: 'POST', headers: headers(sb.devToken), body: JSON.stringify(issueBody(sb, [hung])), signal: ctl.signal });
    await arrived(1);
    expect((await issue(sb, [issuingData()]))[0]!.ErrorCode).toBe('InvoiceNumberNotCotinuous');
    ctl.abort();
    await expect(pending).rejects.toThrow();
    await sleep(50);
    expect((await issue(sb, [issuingData()]))[0]!.ErrorCode).toBe('');
    expect(sb.issued().filter((i) => i.RefID === hung.RefID)).toHaveLength(1);
  });
});

describe('faults on issue: after the handler ran the invoice is recorded exactly once', () => {
  it('reset: no answer, yet issued; a blind resend is DuplicateInvoiceRefID and status finds it', async () => {
    sb.setFaults('issue:reset=1');
    const data = issuingData();
    await expect(postIssue(sb, issueBody(sb, [data]))).rejects.toThrow();
    expect(sb.requests({ op: 'issue' }).at(-1)).toMatchObject({ fault: 'reset', status: 0 });
    expect(sb.issued().filter((i) => i.RefID === data.RefID)).toHaveLength(1);
    sb.setFaults({});
    expect((await issue(sb, [data]))[0]!.ErrorCode).toBe('DuplicateInvoiceRefID');
    const [found] = await status(sb, [data.RefID], 'invoiceWithCode=true&inputType=2');
    expect(found!.TransactionID).toBe(sb.issued().find((i) => i.RefID === data.RefID)!.TransactionID);
    expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 2, recorded: 1 }]);
  });

  it('late500 (alias late-500): an HTML 500 after the invoice was recorded; 500 before it: nothing recorded', async () => {
    for (const spec of ['issue:late500=1', 'issue:late-500=1']) {
      sb.setFaults(spec);
      const data = issuingData();
      const r = await postIssue(sb, issueBody(sb, [data]));
      expect(r.status).toBe(500);
      expect(r.text).toContain('500 - Internal server error');
      expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 1, recorded: 1 }]);
      expect(sb.requests({ op: 'issue' }).at(-1)).toMatchObject({ fault: 'late500', status: 500 });
    }
    sb.setFaults('issue:500=1');
    const early = issuingData();
    const r = await postIssue(sb, issueBody(sb, [early]));
    expect([r.status, r.text.includes('500 - Internal server error')]).toEqual([500, true]);
    expect(sb.issueAttempts(early.RefID)).toEqual([{ RefID: early.RefID, requests: 1, recorded: 0 }]);
  });

  it('truncated, malformed, wrongtypes and empty bodies come after the invoice was recorded', async () => {
    for (const name of ['truncated', 'malformed', 'wrongtypes', 'empty']) {
      sb.setFaults(`issue:${name}=1`);
      const data = issuingData();
      await postIssue(sb, issueBody(sb, [data])).catch(() => undefined);
      expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 1, recorded: 1 }]);
    }
  });

  it('pre-handler faults (429, 503, error) record nothing', async () => {
    for (const name of ['429', '503', 'error']) {
      sb.setFaults(`issue:${name}=1`);
      const data = issuingData();
      expect((await postIssue(sb, issueBody(sb, [data]))).status).toBeGreaterThanOrEqual(429);
      expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 1, recorded: 0 }]);
    }
  });

  it('status and certificates are fault targets of their own; the admin endpoint takes the new ops', async () => {
    const res = await fetch(`${sb.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ spec: 'status:error=1,certificates:503=1,issue:late-500=0.5' }),
    });
    expect(await res.json()).toMatchObject({ faultSpec: 'status:error=1,certificates:503=1,issue:late500=0.5' });
    expect((await call(sb, 'POST', 'status', { query: 'inputType=1', body: [] })).env).toMatchObject({ success: false, errorCode: 'UnknownError' });
    expect((await call(sb, 'GET', 'get-certificates')).status).toBe(503);
    expect((await call(sb, 'GET', 'templates')).status).toBe(200);
  });

  it('callError and maintenance quirks apply to issuing as to the other operations', async () => {
    sb.setQuirks({ callError: 'LicenseInfo_Expired' });
    const data = issuingData();
    expect((await postIssue(sb, issueBody(sb, [data]))).env).toMatchObject({ success: false, errorCode: 'LicenseInfo_Expired' });
    sb.setQuirks({ callError: null, maintenance: true });
    expect((await postIssue(sb, issueBody(sb, [data]))).status).toBe(503);
    expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 2, recorded: 0 }]);
  });
});

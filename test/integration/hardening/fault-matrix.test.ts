import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, isApiError } from '../../../main/services/api';
import { FAULT_KINDS, SANDBOX_CREDENTIALS, startSandbox, type FaultKind, type FaultOp, type Sandbox, type SandboxQuirks } from '../../../main/sandbox';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import { recordHardening } from '../../support/hardening-report';

/**
 * The fault matrix at the client: every operation × every fault the sandbox can inject
 * each with ONE expected outcome, decided once and written down here. "ok" means the call
 * succeeded; anything else is the ApiError kind the caller (and so the user) gets. A cell that
 * ends any other way — a different kind, a plain Error, a hang past the test's bound, a crash —
 * fails the table. Faults are injected on every request (rate 1) so the outcome is the final
 * one after the client's own bounded retries; the second table injects one fault and expects
 * the safe operations to recover by retrying while sendemail never re-sends.
 */
type Outcome = 'ok' | 'timeout' | 'rate_limited' | 'unavailable' | 'network' | 'malformed' | 'unknown_outcome' | 'rejected';
/** Issuing has its own matrix through the issue queue (test/integration/issuing/fault-matrix.test.ts). */
type Op = Exclude<FaultOp, 'issue'>;

const FAULTS = FAULT_KINDS;
const OPS: readonly Op[] = [
  'templates',
  'preview',
  'download',
  'sendemail',
  'token',
  'link',
  'status',
  'certificates',
  'paging',
  'publishview',
  'voucherpaper',
];

// prettier-ignore
const ALWAYS: Record<Op, Record<FaultKind, Outcome>> = {
  //            hang        429             500 (HTML)     503 (HTML)     500 (JSON)          reset              malformed     truncated           wrong types   empty data
  templates: { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'ok', late500: 'unavailable' },
  preview:   { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  download:  { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  // Once the request may have left, sendemail's outcome is unknown and it is never re-sent; the
  // maintenance page (503 HTML) may come from a gateway after the service acted.
  sendemail: { hang: 'unknown_outcome', status429: 'rate_limited', status500: 'unknown_outcome', status503: 'unknown_outcome', error: 'unknown_outcome', reset: 'unknown_outcome', malformed: 'unknown_outcome', truncated: 'unknown_outcome', wrongTypes: 'unknown_outcome', emptyData: 'unknown_outcome', late500: 'unknown_outcome' },
  token:     { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  // A link serves bytes, not an envelope: a body cut with a correct length cannot be told apart
  // here, so the preview service checks the PDF itself (starts with %PDF, ends with %%EOF).
  status:    { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'ok', late500: 'unavailable' },
  certificates: { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'ok', late500: 'unavailable' },
  // The issued-invoice list, view and paper copy: a page, a link or PDFs must be there; an empty answer is not "nothing issued".
  paging:    { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  publishview: { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  voucherpaper: { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'malformed', truncated: 'network', wrongTypes: 'malformed', emptyData: 'malformed', late500: 'unavailable' },
  link:      { hang: 'timeout', status429: 'rate_limited', status500: 'unavailable', status503: 'unavailable', error: 'unavailable', reset: 'network', malformed: 'ok', truncated: 'network', wrongTypes: 'ok', emptyData: 'ok', late500: 'unavailable' },
};

let sandbox: Sandbox;
let client: ApiClient;
let withCodeIds: readonly string[];
let previewLink = '';
const DISCOVER = process.env.EINVOICE_DISCOVER_FAULTS === '1';
const seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ invoiceCount: 60, seed: 7 });
  client = new ApiClient({
    baseUrl: sandbox.baseUrl,
    token: sandbox.devToken,
    timeoutMs: 400,
    retry: { retries: 1, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 4_000 },
  });
  withCodeIds = sandbox.catalogue.list('withCode').slice(0, 3);
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  if (DISCOVER) console.log(seen.join('\n'));
});

async function run(op: Op): Promise<unknown> {
  switch (op) {
    case 'templates':
      return client.templates({ withCode: true });
    case 'preview':
      return client.preview(sampleInvoiceData() as never);
    case 'download':
      return client.download(withCodeIds, { type: 'Pdf', kind: 'withCode' });
    case 'sendemail':
      return client.sendEmail({
        SendEmailDatas: [{ TransactionID: withCodeIds[0]!, ReceiverName: 'Khách', ReceiverEmail: 'khach@example.vn' }],
        IsInvoiceCode: true,
      } as never);
    case 'token':
      return client.requestToken(SANDBOX_CREDENTIALS);
    case 'link':
      return client.fetchBytes(previewLink);
    case 'status':
      return client.status(withCodeIds, { by: 'transactionId', kind: 'withCode' });
    case 'certificates':
      return client.certificates();
    case 'paging':
      return client.paging({ from: '2000-01-01', to: '2099-12-31', kind: 'withCode', skip: 0, take: 10 });
    case 'publishview':
      return client.publishView(withCodeIds.slice(0, 1));
    case 'voucherpaper':
      return client.voucherPaper(withCodeIds.slice(0, 1), { converter: 'Nguyễn Văn An', date: '2026-10-05', kind: 'withCode' });
  }
}

async function outcomeOf(op: Op): Promise<Outcome | string> {
  try {
    await run(op);
    return 'ok';
  } catch (error) {
    return isApiError(error) ? error.kind : `plain error: ${(error as Error).message}`;
  }
}

async function prepare(op: Op): Promise<void> {
  sandbox.setFaults({});
  if (op === 'link') previewLink = (await client.preview(sampleInvoiceData() as never)).link;
}

describe('fault matrix: the fault on every request', () => {
  for (const op of OPS) {
    it.each(FAULTS)(`${op} × %s ends as written in the table`, async (fault) => {
      await prepare(op);
      sandbox.setFaults({ [op]: { [fault]: 1, retryAfterS: 0 } });
      const started = Date.now();
      const outcome = await outcomeOf(op);
      const ms = Date.now() - started;
      seen.push(`${op} ${fault} → ${outcome} (${ms} ms)`);
      if (!DISCOVER) expect(outcome).toBe(ALWAYS[op][fault]);
      expect(ms).toBeLessThan(6_000); // bounded: the client gave up in time
    });
  }
});

const TRANSIENT: readonly FaultKind[] = ['status429', 'status500', 'status503', 'reset', 'truncated', 'hang'];

describe('fault matrix: one fault, then the service behaves', () => {
  for (const op of OPS) {
    it.each(TRANSIENT)(`${op} × one %s`, async (fault) => {
      await prepare(op);
      sandbox.setFaults({ [op]: { [fault]: 1, limit: 1, retryAfterS: 0 } });
      const sentBefore = sandbox.requests({ op: 'sendemail' }).length;
      const outcome = await outcomeOf(op);
      seen.push(`${op} one ${fault} → ${outcome}`);
      // Safe operations recover by retrying; sendemail reports what it knows and never re-sends.
      const expected = op === 'sendemail' ? ALWAYS.sendemail[fault] : 'ok';
      if (!DISCOVER) expect(outcome).toBe(expected);
      if (op === 'sendemail') expect(sandbox.requests({ op: 'sendemail' }).length - sentBefore).toBe(1);
    });
  }
});

// Not faults: answers the service really gives, each of which must read as success, in one request.
const ANSWERS: ReadonlyArray<Partial<SandboxQuirks>> = [
  ...(['zero', 'zeroString', 'emptyString', 'null', 'emptyList', 'emptyObject'] as const).map((itemNoError) => ({ itemNoError })),
  { emailAnswer: 'emptyData' },
  { emailAnswer: 'noTransactionId' },
];

describe('fault matrix: sendemail answers that are not errors (ErrorCode 0, "0", "", null, [], {}; data ""; no TransactionID)', () => {
  it.each(ANSWERS)('sendemail answered with %o: every item ok, exactly one request', async (quirks) => {
    sandbox.setFaults({});
    sandbox.setQuirks(quirks);
    try {
      const sentBefore = sandbox.requests({ op: 'sendemail' }).length;
      const outcome = (await run('sendemail')) as { items: Array<{ ok: boolean; errorCode: string | null }> };
      seen.push(`sendemail answer ${JSON.stringify(quirks)} → ${outcome.items.map((i) => (i.ok ? 'ok' : i.errorCode)).join(',')}`);
      expect(outcome.items).toEqual([expect.objectContaining({ ok: true, errorCode: null })]);
      expect(sandbox.requests({ op: 'sendemail' }).length - sentBefore).toBe(1);
    } finally {
      sandbox.setQuirks({ itemNoError: 'emptyString', emailAnswer: 'items' });
    }
  });
});

/**
 * A gateway in front of the sandbox: the sendemail request reaches the service (which records the
 * email), then the gateway answers the client with something that is not the service's answer.
 */
type AfterSend = { status: number; contentType: string; body: string };
const AFTER_SEND: Record<string, AfterSend & { expected: Outcome }> = {
  'bare 503': { status: 503, contentType: 'text/plain', body: '', expected: 'unknown_outcome' },
  'bare 502': { status: 502, contentType: 'text/plain', body: '', expected: 'unknown_outcome' },
  '503 HTML page': { status: 503, contentType: 'text/html', body: '<!DOCTYPE html><h1>Service Unavailable</h1>', expected: 'unknown_outcome' },
  '502 HTML page': { status: 502, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>', expected: 'unknown_outcome' },
  '200 truncated JSON': { status: 200, contentType: 'application/json', body: '{"success":true,"data":"[{\\"Transac', expected: 'unknown_outcome' },
  '200 HTML page': { status: 200, contentType: 'text/html', body: '<html>ok</html>', expected: 'unknown_outcome' },
};

async function gateway(answer: AfterSend): Promise<{ server: Server; baseUrl: string }> {
  const target = new URL(sandbox.baseUrl);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', target.origin);
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
        const upstream = await fetch(url, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
        const text = await upstream.text();
        if (/sendemail/i.test(url.pathname)) {
          res.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.body) });
          res.end(answer.body);
          return;
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}${target.pathname}` };
}

describe('fault matrix: sendemail answered by a gateway after the service acted (bare 5xx, not JSON)', () => {
  it.each(Object.keys(AFTER_SEND))('a bare 5xx or a non-JSON answer after the request left is unknown, not "not sent": %s', async (name) => {
    const cell = AFTER_SEND[name]!;
    sandbox.setFaults({});
    const { server, baseUrl } = await gateway(cell);
    const viaGateway = new ApiClient({
      baseUrl,
      token: sandbox.devToken,
      timeoutMs: 2_000,
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 4_000 },
    });
    try {
      const sentBefore = sandbox.requests({ op: 'sendemail' }).length;
      let outcome: string = 'ok';
      try {
        await viaGateway.sendEmail({
          SendEmailDatas: [{ TransactionID: withCodeIds[0]!, ReceiverName: 'Khách', ReceiverEmail: 'khach@example.vn' }],
          IsInvoiceCode: true,
        } as never);
      } catch (error) {
        outcome = isApiError(error) ? error.kind : `plain error: ${(error as Error).message}`;
      }
      seen.push(`sendemail after send ${name} → ${outcome}`);
      expect(outcome).toBe(cell.expected);
      expect(sandbox.requests({ op: 'sendemail' }).length - sentBefore).toBe(1);
    } finally {
      await viaGateway.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a 503 carrying the service's own envelope says it did not act: the caller may retry later", async () => {
    sandbox.setFaults({});
    const { server, baseUrl } = await gateway({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, errorCode: 'ServiceUnavailable', descriptionErrorCode: 'maintenance', data: null }),
    });
    const viaGateway = new ApiClient({ baseUrl, token: sandbox.devToken, timeoutMs: 2_000, retry: false });
    try {
      const error = await viaGateway
        .sendEmail({
          SendEmailDatas: [{ TransactionID: withCodeIds[0]!, ReceiverName: 'Khách', ReceiverEmail: 'khach@example.vn' }],
          IsInvoiceCode: true,
        } as never)
        .catch((e: unknown) => e);
      expect(isApiError(error) && error.kind).toBe('unavailable');
    } finally {
      await viaGateway.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('fault matrix bookkeeping', () => {
  it('covers every operation and every fault kind', () => {
    expect(Object.keys(ALWAYS).sort()).toEqual([...OPS].sort());
    for (const op of OPS) expect(Object.keys(ALWAYS[op]).sort()).toEqual([...FAULTS].sort());
    recordHardening('fault-matrix', {
      faultsTried: OPS.length * FAULTS.length + OPS.length * TRANSIENT.length + ANSWERS.length + Object.keys(AFTER_SEND).length + 1,
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import { call, headers } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 80, seed: 9 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const templates = () => fetch(`${sb.baseUrl}/templates`, { headers: headers(sb.devToken) });

describe('fault kinds over HTTP', () => {
  it('latency (+ jitter)', async () => {
    sb.setFaults('templates:latency=250:jitter=50');
    const t0 = performance.now();
    expect((await templates()).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240);
  });

  it('429 with Retry-After', async () => {
    sb.setFaults('templates:429=1:retry-after=7');
    const res = await templates();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toMatchObject({ success: false, errorCode: 'TooManyRequests' });
  });

  it('500 HTML page, 503 maintenance page, error envelope', async () => {
    sb.setFaults('templates:500=1');
    let res = await templates();
    expect([res.status, res.headers.get('content-type')]).toEqual([500, 'text/html; charset=utf-8']);
    expect(await res.text()).toContain('500 - Internal server error');
    sb.setFaults('templates:503=1');
    res = await templates();
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('Hệ thống đang bảo trì');
    sb.setFaults('templates:error=1');
    res = await templates();
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ success: false, errorCode: 'UnknownError' });
  });

  it('pre-handler faults have no side effect; reset happens after the handler ran', async () => {
    const body = { SendEmailDatas: [{ TransactionID: sb.catalogue.list('withCode')[0], ReceiverEmail: 'a@b.vn' }], IsInvoiceCode: true };
    sb.setFaults('sendemail:503=1');
    expect((await call(sb, 'POST', 'sendemail', { body })).status).toBe(503);
    expect(sb.sentEmails()).toHaveLength(0);
    sb.setFaults('sendemail:reset=1');
    await expect(call(sb, 'POST', 'sendemail', { body })).rejects.toThrow();
    expect(sb.sentEmails()).toHaveLength(1);
    expect(sb.requests({ op: 'sendemail' }).at(-1)).toMatchObject({ fault: 'reset', status: 0 });
  });

  it('hang: no answer until the client gives up', async () => {
    sb.setFaults('download:hang=1');
    const t0 = performance.now();
    await expect(
      fetch(`${sb.baseUrl}/Download`, { method: 'POST', headers: headers(sb.devToken), body: '[]', signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    expect(sb.requests({ op: 'download' }).at(-1)).toMatchObject({ fault: 'hang', status: 0 });
  });

  it('malformed JSON with a correct Content-Length', async () => {
    sb.setFaults('templates:malformed=1');
    const res = await templates();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text)).toThrow();
  });

  it('truncated: a longer Content-Length is announced and the body is cut', async () => {
    sb.setFaults('templates:truncated=1');
    const res = await templates();
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('wrong field types and empty data', async () => {
    sb.setFaults('templates:wrongtypes=1');
    expect(await (await templates()).json()).toMatchObject({ success: 'true', errorCode: 0, errors: 'none', data: 12345 });
    sb.setFaults('templates:empty=1');
    expect(await (await templates()).json()).toMatchObject({ success: true, data: null });
  });

  it('token and preview operations and links can fail too', async () => {
    sb.setFaults('token:503=1');
    expect((await fetch(sb.tokenUrl, { method: 'POST', body: '{}' })).status).toBe(503);
    const link = (await call(sb, 'POST', 'unpublishview', { body: sampleInvoiceData() })).env.data as string;
    sb.setFaults('link:truncated=1,preview:429=1');
    const res = await fetch(link);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect((await call(sb, 'POST', 'unpublishview', { body: sampleInvoiceData() })).status).toBe(429);
    sb.setFaults('link:reset=1');
    await expect(fetch(link)).rejects.toThrow();
  });

  it('all: applies to every operation; op-specific values win; limit stops after N faults', async () => {
    sb.setFaults('all:503=1,templates:503=0');
    expect((await templates()).status).toBe(200);
    expect((await call(sb, 'POST', 'Download', { body: [] })).status).toBe(503);
    sb.setFaults({ download: { status503: 1, limit: 2 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sb, 'POST', 'Download', { body: [] })).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
  });
});

describe('reproducibility', () => {
  it('the same seed and spec give the same outcome sequence', async () => {
    const run = async (seed: number) => {
      const s = await startSandbox({ invoiceCount: 10, seed, faults: 'templates:503=0.3:429=0.3' });
      try {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await fetch(`${s.baseUrl}/templates`, { headers: headers(s.devToken) })).status);
        return out;
      } finally {
        await s.close();
      }
    };
    const a = await run(11);
    expect(await run(11)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 503]));
    expect(await run(12)).not.toEqual(a);
  });

  it('bad specs are refused at start-up', async () => {
    await expect(startSandbox({ faults: 'download:explode=1' })).rejects.toThrow(/unknown fault/);
  });
});

import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/services/api';
import { startAnswerServer, type AnswerServer } from '../../support/answer-server';
import { failure } from '../../support/api-failure';

let server: AnswerServer;
const clients: ApiClient[] = [];
let streamed = 0;
let closedByClient = 0;

/** Writes an envelope that never ends: `{"success":true,"data":"AAAA…` 64 KB at a time, until the client goes. */
function endless(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"success":true,"errorCode":null,"data":"');
  const chunk = 'A'.repeat(64 * 1024);
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) streamed += chunk.length;
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => closedByClient++);
  pump();
}

function client(limits: Record<string, number> = {}): ApiClient {
  const c = new ApiClient({ baseUrl: server.baseUrl, token: 't', timeoutMs: 20_000, retry: { retries: 2, baseDelayMs: 5 }, answerLimits: limits });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startAnswerServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

describe('every read of a service answer has a ceiling', () => {
  it('an endless Download answer fails that call with a clear message within seconds, is not retried, and the connection is dropped', async () => {
    server.answer({ body: endless });
    const before = server.requests.length;
    const started = Date.now();
    const e = await failure(client({ download: 4 * 1024 * 1024 }).download(['A', 'B'], { type: 'Pdf' }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(e.kind).toBe('rejected');
    expect(e.message).toMatch(/larger than 4 MB/);
    expect(e.messageVi).toMatch(/lớn hơn 4 MB/);
    expect(server.requests.length - before).toBe(1);
    await expect.poll(() => closedByClient, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(process.memoryUsage().rss).toBeLessThan(2 * 1024 ** 3);
  });

  it('an endless sendemail answer is an unknown outcome (never re-sent), not a crash', async () => {
    server.answer({ body: endless });
    const before = server.requests.length;
    const e = await failure(
      client({ sendemail: 1024 * 1024 }).sendEmail({
        SendEmailDatas: [{ TransactionID: 'A', ReceiverName: 'X', ReceiverEmail: 'x@example.vn', CCEmail: null, BCCEmail: null, ReplyEmail: null }],
        IsInvoiceCode: false,
      }),
    );
    expect(e.kind).toBe('unknown_outcome');
    expect(e.message).toMatch(/larger than 1 MB/);
    expect(server.requests.length - before).toBe(1);
  });

  it('an announced 2 GB answer is refused from its Content-Length before a byte of it is read (default ceiling)', async () => {
    server.answer({
      body: (res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(2 * 1024 ** 3) });
        res.write(Buffer.alloc(1024));
      },
    });
    const e = await failure(client().fetchBytes(`${server.baseUrl}/viewer/x.pdf`));
    expect(e.kind).toBe('rejected');
    expect(e.message).toMatch(/larger than 128 MB/);
  });

  it('the default ceilings stop an endless templates answer at 16 MB', async () => {
    server.answer({ body: endless });
    streamed = 0;
    const e = await failure(client().templates());
    expect(e.message).toMatch(/larger than 16 MB/);
    expect(streamed).toBeLessThan(64 * 1024 * 1024);
  });
});

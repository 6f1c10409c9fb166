import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/service-samples');

/** A stored service answer (test/fixtures/service-samples/NAME.json) with `{{ID0}}`… replaced by `ids`. */
export function sampleAnswer(name: string, ids: readonly string[] = []): string {
  const text = fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');
  return text.replace(/\{\{ID(\d+)\}\}/g, (_m, i: string) => ids[Number(i)] ?? '');
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** A fixed body, or a writer that owns the response (streams, hangs). */
  body: string | ((res: http.ServerResponse) => void);
}

export interface AnswerServer {
  /** `http://127.0.0.1:PORT/api/integration/invoice` */
  baseUrl: string;
  /** Each request's method, path, body and Authorization header, in order. */
  requests: Array<{ method: string; url: string; body: string; authorization: string | null }>;
  /** What the next requests get (until set again). */
  answer(a: Answer): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that answers every request with what the test sets. */
export async function startAnswerServer(): Promise<AnswerServer> {
  let current: Answer = { body: '' };
  const requests: AnswerServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        authorization: req.headers.authorization ?? null,
      });
      const a = current;
      if (typeof a.body === 'function') return a.body(res);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...a.headers });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/integration/invoice`,
    requests,
    answer: (a) => {
      current = a;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

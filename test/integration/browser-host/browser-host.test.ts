import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNames } from '../../../common/contract';
import { callRoute, EVENTS_ROUTE, SECRET_HEADER } from '../../../common/ipc/channels';
import { startBrowserHost, type BrowserHost } from '../../../main/browser-host/server';
import { createServices, type Services } from '../../../main/services/index';
import { mayFailWithAppError, sampleRequests } from '../../support/contract-samples';
import { makeTempDir } from '../../support/temp-dir';

let services: Services;
let host: BrowserHost;
let temp: ReturnType<typeof makeTempDir>;

beforeAll(async () => {
  temp = makeTempDir();
  const rendererDir = path.join(temp.dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>shell</title>');
  fs.writeFileSync(path.join(temp.dir, 'outside.txt'), 'must not be served');
  services = await createServices({ dataDir: path.join(temp.dir, 'data'), version: '9.9.9', host: 'browser' });
  host = await startBrowserHost({ services, rendererDir });
});

afterAll(async () => {
  await host?.close();
  await services?.close();
  temp?.cleanup();
});

const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(host.origin + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SECRET_HEADER]: host.secret, ...headers },
    body: JSON.stringify(body),
  });

describe('browser host', () => {
  it('listens on 127.0.0.1 only and puts the secret in the launch URL fragment', () => {
    expect(new URL(host.origin).hostname).toBe('127.0.0.1');
    expect(host.launchUrl).toBe(`${host.origin}/#k=${host.secret}`);
    expect(host.secret.length).toBeGreaterThanOrEqual(32);
  });

  it.each(callNames)('round-trips %s over real HTTP', async (name) => {
    const response = await post(callRoute(name), sampleRequests[name]);
    expect(response.status).toBe(200);
    const result = (await response.json()) as { ok: boolean; error?: { code: string } };
    if (!result.ok) {
      expect(mayFailWithAppError.has(name), `${name} failed: ${JSON.stringify(result.error)}`).toBe(true);
      expect(result.error?.code).not.toBe('validation');
    }
  });

  it('answers app.info with this run’s facts', async () => {
    const result = await (await post(callRoute('app.info'), {})).json();
    expect(result).toMatchObject({ ok: true, value: { version: '9.9.9', host: 'browser', dataDir: path.join(temp.dir, 'data') } });
  });

  it.each(callNames)('answers malformed input to %s with a validation error', async (name) => {
    const result = (await (await post(callRoute(name), ['not', 'a', { request: null }])).json()) as { ok: boolean; error: { code: string } };
    expect(result).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('refuses a call without the secret, or with a wrong one', async () => {
    const noSecret = await fetch(host.origin + callRoute('app.info'), { method: 'POST', body: '{}' });
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toMatchObject({ ok: false, error: { code: 'bad_secret' } });
    const wrong = await post(callRoute('app.info'), {}, { [SECRET_HEADER]: host.secret.slice(0, -1) + 'x' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Origin even with the secret', async () => {
    const response = await post(callRoute('app.info'), {}, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_origin' } });
    const ok = await post(callRoute('app.info'), {}, { origin: host.origin });
    expect(ok.status).toBe(200);
  });

  it('refuses a Host header other than its loopback address (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: Number(new URL(host.origin).port), path: callRoute('app.info'), method: 'POST', headers: { host: `evil.example:${new URL(host.origin).port}`, [SECRET_HEADER]: host.secret } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(421);
  });

  it('refuses a body that is not JSON with a clear error', async () => {
    const response = await fetch(host.origin + callRoute('app.info'), { method: 'POST', headers: { [SECRET_HEADER]: host.secret }, body: '{oops' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_json' } });
  });

  it('streams contract events over server-sent events, starting with the latest state', async () => {
    const controller = new AbortController();
    const response = await fetch(`${host.origin}${EVENTS_ROUTE}?secret=${host.secret}`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    services.bus.emit('app.online', { online: false, checkedAt: '2026-01-01T00:00:00.000Z' });
    let text = '';
    while (!text.includes('"online":false')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: app.online');
    controller.abort();
    const refused = await fetch(`${host.origin}${EVENTS_ROUTE}`);
    expect(refused.status).toBe(401);
  });

  it('serves the renderer with the strict CSP and never a file outside it', async () => {
    const index = await fetch(host.origin + '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await index.text()).toContain('shell');
    for (const sneaky of ['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt']) {
      const response = await fetch(host.origin + sneaky);
      expect(await response.text()).not.toContain('must not be served');
    }
  });
});

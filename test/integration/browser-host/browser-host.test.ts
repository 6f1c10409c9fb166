import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNames, calls } from '../../../common/contract';
import { callRoute, EVENTS_ROUTE, SECRET_HEADER } from '../../../common/ipc/channels';
import { emptyLine } from '../../../common/money';
import { startBrowserHost, type BrowserHost } from '../../../main/browser-host/server';
import { createServices, type Services } from '../../../main/services/index';
import { mayFailWithAppError, sampleRequests } from '../../support/contract-samples';
import { makeTempDir } from '../../support/temp-dir';
import { buildHostBundle, exchangeLaunchCode, startHostProcess } from './host-process';

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

/** The secret with its last character changed: random secrets may end in any character. */
const wrongSecret = () => host.secret.slice(0, -1) + (host.secret.endsWith('x') ? 'y' : 'x');
const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(host.origin + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SECRET_HEADER]: host.secret, ...headers },
    body: JSON.stringify(body),
  });

describe('browser host', () => {
  it('listens on 127.0.0.1 only; the launch URL holds a one-time code, never the secret', () => {
    expect(new URL(host.origin).hostname).toBe('127.0.0.1');
    expect(host.launchUrl).toMatch(new RegExp(`^${host.origin}/\\?launch=[\\w-]{32}$`));
    expect(host.launchUrl).not.toContain(host.secret);
    expect(host.secret.length).toBeGreaterThanOrEqual(32);
    expect(host.newLaunchUrl()).not.toBe(host.newLaunchUrl());
  });

  it.each(callNames)('round-trips %s over real HTTP', async (name) => {
    const response = await post(callRoute(name), sampleRequests[name]);
    expect(response.status).toBe(200);
    const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { code: string } };
    // The renderer's bridge hands a value on unparsed: what arrives after JSON must still be what its schema says.
    if (result.ok) expect(calls[name].response.safeParse(result.value).success, `${name}'s value after JSON`).toBe(true);
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
    const wrong = await post(callRoute('app.info'), {}, { [SECRET_HEADER]: wrongSecret() });
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
        {
          host: '127.0.0.1',
          port: Number(new URL(host.origin).port),
          path: callRoute('app.info'),
          method: 'POST',
          headers: { host: `evil.example:${new URL(host.origin).port}`, [SECRET_HEADER]: host.secret },
        },
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
    const response = await fetch(`${host.origin}${EVENTS_ROUTE}`, { headers: { cookie: await signIn() }, signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    services.bus.emit('app.online', { online: false, checkedAt: '2026-01-01T00:00:00.000Z' });
    let text = '';
    while (!text.includes('"online":false')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: app.online');
    controller.abort();
    const refused = await fetch(`${host.origin}${EVENTS_ROUTE}`);
    expect(refused.status).toBe(401);
    // The secret in the address is no longer accepted anywhere.
    expect((await fetch(`${host.origin}${EVENTS_ROUTE}?secret=${host.secret}`)).status).toBe(401);
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

const cookieName = () => `einvoice-${new URL(host.origin).port}`;

/** A browser's first load of a fresh launch URL: the cookie it is given. */
async function signIn(): Promise<string> {
  return `${cookieName()}=${await exchangeLaunchCode(host.newLaunchUrl())}`;
}

describe('browser host: the launch code and the cookie', () => {
  it('exchanges a launch code once for an HttpOnly, SameSite=Strict cookie holding the secret', async () => {
    const launchUrl = host.newLaunchUrl();
    const first = await fetch(launchUrl);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('set-cookie')).toBe(`${cookieName()}=${host.secret}; Path=/; HttpOnly; SameSite=Strict`);
    expect(await first.text()).toContain('shell');
    const cookie = `${cookieName()}=${host.secret}`;
    const call = await fetch(host.origin + callRoute('app.info'), { method: 'POST', headers: { cookie }, body: '{}' });
    expect(await call.json()).toMatchObject({ ok: true, value: { version: '9.9.9' } });
  });

  it('refuses a launch code used a second time', async () => {
    const launchUrl = host.newLaunchUrl();
    await exchangeLaunchCode(launchUrl);
    const again = await fetch(launchUrl);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('already used or has expired');
    // The same tab, already holding its cookie, just reloads the app.
    const withCookie = await fetch(launchUrl, { headers: { cookie: await signIn() } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a made-up code, a wrong cookie, and a cookie of another port', async () => {
    expect((await fetch(`${host.origin}/?launch=${'x'.repeat(32)}`)).status).toBe(401);
    const call = (cookie: string) => fetch(host.origin + callRoute('app.info'), { method: 'POST', headers: { cookie }, body: '{}' });
    expect((await call(`${cookieName()}=${wrongSecret()}`)).status).toBe(401);
    expect((await call(`einvoice-1=${host.secret}`)).status).toBe(401);
  });

  it('refuses an expired launch code and an expired preview link', async () => {
    let clock = 1_000_000;
    const timed = await startBrowserHost({ services, rendererDir: path.join(temp.dir, 'renderer'), linkTtlMs: 60_000, now: () => clock });
    try {
      const late = timed.newLaunchUrl();
      const inTime = timed.newLaunchUrl();
      clock += 59_999;
      await exchangeLaunchCode(inTime);
      clock += 1;
      const refused = await fetch(late);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('set-cookie')).toBeNull();
    } finally {
      await timed.close();
    }
  });
});

describe('browser host: the preview tab', () => {
  let previewId: string;

  beforeAll(async () => {
    const record = services.drafting.drafts.create();
    services.drafting.drafts.save(record.id, {
      ...record.draft,
      InvSeries: `1C${record.draft.InvDate.slice(2, 4)}TAA`,
      BuyerLegalName: 'Công ty TNHH Hoa Sen',
      lines: [{ ...emptyLine(1), ItemName: 'Cà phê', UnitName: 'kg', Quantity: '2', UnitPrice: '150000', VATRateName: '10%' }],
    });
    previewId = (await services.drafting.preview.run(record.id)).previewId;
  }, 60_000);

  it('opens through a one-time link: the address holds neither the secret nor anything reusable', async () => {
    const cookie = await signIn();
    const opened = await services.dispatch('preview.open', { previewId }, { host: 'browser' });
    expect(opened).toMatchObject({ ok: true, value: { path: `/api/preview/${previewId}` } });
    const path = (opened as { value: { path: string } }).value.path;
    expect(path).not.toContain(host.secret);

    const redirect = await fetch(host.origin + path, { headers: { cookie }, redirect: 'manual' });
    expect(redirect.status).toBe(303);
    const link = redirect.headers.get('location')!;
    expect(link).toMatch(/^\/preview\/[\w-]{32}$/);
    expect(link).not.toContain(host.secret);
    expect(link).not.toContain(previewId);

    const page = await fetch(host.origin + link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await page.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const reused = await fetch(host.origin + link);
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('already opened or has expired');
  });

  it('refuses the preview route without the cookie, and an unknown preview', async () => {
    expect((await fetch(`${host.origin}/api/preview/${previewId}`, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(`${host.origin}/api/preview/no-such-preview`, { headers: { cookie: await signIn() }, redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${host.origin}/preview/${'y'.repeat(32)}`)).status).toBe(410);
  });

  it('lets a preview link expire', async () => {
    let clock = 5_000_000;
    const timed = await startBrowserHost({ services, rendererDir: path.join(temp.dir, 'renderer'), linkTtlMs: 60_000, now: () => clock });
    try {
      const redirect = await fetch(`${timed.origin}/api/preview/${previewId}`, { headers: { [SECRET_HEADER]: timed.secret }, redirect: 'manual' });
      clock += 60_000;
      expect((await fetch(timed.origin + redirect.headers.get('location')!)).status).toBe(410);
    } finally {
      await timed.close();
    }
  });
});

describe('browser host process: the secret stays out of stdout and arguments', () => {
  it('prints a launch URL with a code only, and no argument carries the secret', async () => {
    const hostFile = await buildHostBundle(path.join(temp.dir, 'browser-host.cjs'));
    const running = await startHostProcess({ hostFile, dataDir: path.join(temp.dir, 'process-data'), env: { EINVOICE_SANDBOX_URL: 'http://127.0.0.1:9' } });
    try {
      const stdout = running.stdout();
      expect(running.secret.length).toBeGreaterThanOrEqual(32);
      expect(stdout).not.toContain(running.secret);
      expect(stdout).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/\?launch=[\w-]{32} /);
      const argv = fs.readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8');
      expect(argv).not.toContain(running.secret);
      // The printed code was used by the harness: the same link is refused now.
      const printed = /EINVOICE_BROWSER_HOST (\{.*\})/.exec(stdout)![1]!;
      expect((await fetch((JSON.parse(printed) as { launchUrl: string }).launchUrl)).status).toBe(401);
      expect(running.stdout()).not.toContain(running.secret);
    } finally {
      await running.stop();
    }
  }, 90_000);
});

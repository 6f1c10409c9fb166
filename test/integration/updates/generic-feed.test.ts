/**
 * The whole update path short of Electron itself: our state machine and adapter drive the real
 * electron-updater (its Linux AppImage updater, generic provider, YAML parsing, sha512 check,
 * download cache and install step) against a real HTTP update server on 127.0.0.1 — what
 * EINVOICE_UPDATE_URL points the app at in tests. Electron's `app` and `net` are replaced by a
 * small app adapter and builder-util's Node HTTP executor (electron-updater's own test approach).
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../common/calls/updates';
import { EventBus } from '../../../common/ipc/bus';
import { createUpdaterHost, type AutoUpdaterLike } from '../../../main/electron/updater/host';
import { UpdatesService } from '../../../main/services/updates/service';
import { realTimers } from '../../../main/services/updates/timers';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';

const require = createRequire(import.meta.url);
const { AppImageUpdater } = require('electron-updater/out/AppImageUpdater') as {
  AppImageUpdater: new (options: unknown, app: unknown) => AutoUpdaterLike & { httpExecutor: unknown };
};
const { NodeHttpExecutor } = require('builder-util/out/nodeHttpExecutor') as { NodeHttpExecutor: new () => NodeExecutorBase };
const runtime = require('builder-util-runtime') as {
  configureRequestUrl(url: URL, options: object): void;
  configureRequestOptions(options: object): object;
};

interface NodeExecutorBase {
  doDownload(requestOptions: object, options: object, redirectCount: number): void;
}
interface DownloadOptions {
  headers?: Record<string, string> | null;
  cancellationToken: { createPromise<T>(run: (resolve: (v: T) => void, reject: (e: Error) => void, onCancel: (cb: () => void) => void) => void): Promise<T> };
}

/** builder-util's Node executor plus the `download` electron-updater's Electron executor has (same code, over node:http). */
class NodeDownloadExecutor extends NodeHttpExecutor {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers || undefined };
      runtime.configureRequestUrl(url, requestOptions);
      runtime.configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        { destination, options, onCancel, callback: (error: Error | null) => (error == null ? resolve(destination) : reject(error)), responseHandler: null },
        0,
      );
    });
  }
}

// electron-updater emits one event on Electron's own autoUpdater when it quits into an update; in
// plain Node the electron package only holds a path (and here not even a binary), so the built-in
// module is stood in for with the one object that step touches.
const electronEntry = require.resolve('electron');
const previousElectron = require.cache[electronEntry];
require.cache[electronEntry] = { id: electronEntry, filename: electronEntry, loaded: true, exports: { autoUpdater: new EventEmitter() } } as NodeJS.Module;
afterAll(() => {
  if (previousElectron) require.cache[electronEntry] = previousElectron;
  else delete require.cache[electronEntry];
});

const NEW_VERSION = '0.2.0';
const FILE = `eInvoice-Desk-${NEW_VERSION}-x86_64.AppImage`;

let work: string;
let server: http.Server;
let baseUrl: string;
let requests: string[];
let online: boolean;
let payload: Buffer;

function manifest(sha512: string, size: number): string {
  return [
    `version: ${NEW_VERSION}`,
    'files:',
    `  - url: ${FILE}`,
    `    sha512: ${sha512}`,
    `    size: ${size}`,
    `path: ${FILE}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-03-01T08:00:00.000Z'`,
    '',
  ].join('\n');
}

beforeEach(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-update-feed-'));
  requests = [];
  online = true;
  // The "new AppImage": a harmless script (AppImageUpdater starts it after installing), padded so
  // the download takes several progress events.
  payload = Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.alloc(3 * 1024 * 1024, 0x23)]);
  const sha512 = createHash('sha512').update(payload).digest('base64');
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (!online) {
      req.socket.destroy();
      return;
    }
    const name = decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\/feed\//, ''));
    if (name === 'latest-linux.yml' || name === 'latest-linux-arm64.yml') {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(manifest(sha512, payload.length));
    } else if (name === FILE) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': payload.length });
      // In chunks, so progress is reported along the way.
      let offset = 0;
      const next = () => {
        if (offset >= payload.length) return void res.end();
        const chunk = payload.subarray(offset, offset + 256 * 1024);
        offset += chunk.length;
        res.write(chunk, () => setTimeout(next, 5));
      };
      next();
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
});

const previousAppImage = process.env.APPIMAGE;
afterEach(async () => {
  if (previousAppImage === undefined) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = previousAppImage;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

function startApp() {
  const oldAppImage = path.join(work, 'installed', 'eInvoice-Desk.AppImage');
  fs.mkdirSync(path.dirname(oldAppImage), { recursive: true });
  fs.writeFileSync(oldAppImage, '#!/bin/sh\necho old\n', { mode: 0o755 });
  // electron-updater reads APPIMAGE from the real environment when it downloads and installs.
  process.env.APPIMAGE = oldAppImage;
  const quits: string[] = [];
  // Electron's `app` as electron-updater sees it.
  const appAdapter = {
    version: '0.1.0',
    name: 'einvoice-desk',
    isPackaged: false,
    appUpdateConfigPath: path.join(work, 'resources', 'app-update.yml'),
    userDataPath: path.join(work, 'user-data'),
    baseCachePath: path.join(work, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => quits.push('relaunch'),
    quit: () => quits.push('quit'),
    onQuit: () => {},
  };
  const updater = new AppImageUpdater(null, appAdapter);
  updater.httpExecutor = new NodeDownloadExecutor();
  const logs: string[] = [];
  const bus = new EventBus();
  const states: UpdateState[] = [];
  bus.on('updates.state', (s) => states.push(s));
  const work_ = new WorkInProgress();
  const service = new UpdatesService({
    bus,
    dataDir: path.join(work, 'data'),
    work: work_,
    timers: realTimers,
    log: (_level, message) => logs.push(message),
    // Check at once, retry fast: this is a test.
    policy: { initialDelayMs: 0, offlineMinMs: 50, offlineMaxMs: 200, errorMinMs: 50 },
  });
  fs.mkdirSync(path.join(work, 'data'), { recursive: true });
  service.attach(
    createUpdaterHost({
      getAutoUpdater: () => updater,
      onProgress: (p) => service.progress(p),
      isPackaged: false,
      platform: 'linux',
      resourcesPath: path.join(work, 'resources'),
      configDir: path.join(work, 'data'),
      env: { EINVOICE_UPDATE_URL: baseUrl, APPIMAGE: oldAppImage },
      argv: ['einvoice-desk'],
      log: (_level, message) => logs.push(message),
    }),
  );
  return { service, states, quits, oldAppImage, logs, work: work_ };
}

async function waitFor(predicate: () => boolean, what: string, detail: () => unknown = () => '', ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${JSON.stringify(detail(), null, 1)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// electron-updater's AppImage updater (mv, chmod, APPIMAGE): Linux only (the CI ubuntu job runs it).
describe.runIf(process.platform === 'linux')('updating from a generic feed (EINVOICE_UPDATE_URL) with the real electron-updater', () => {
  it('finds the new version, downloads and verifies it with progress, waits for work, then installs it', async () => {
    const app = startApp();
    {
      await waitFor(
        () => app.service.state.status === 'ready',
        'the update to be ready',
        () => ({ states: app.states, logs: app.logs, requests }),
      );
      expect(app.service.state).toEqual({ status: 'ready', version: NEW_VERSION });
      expect(requests.some((r) => r.startsWith('/feed/latest-linux'))).toBe(true);
      expect(requests).toContain(`/feed/${FILE}`);
      const progress = app.states.filter((s) => s.status === 'downloading');
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.map((s) => (s.status === 'downloading' ? s.percent : -1))).toEqual(
        [...progress.map((s) => (s.status === 'downloading' ? s.percent : -1))].sort((a, b) => a - b),
      );
      expect(app.states.map((s) => s.status).filter((s, i, all) => s !== all[i - 1])).toEqual(['idle', 'checking', 'downloading', 'ready']);

      // A send is running: restart waits, nothing is replaced.
      let sending = true;
      app.work.register('emails.queue', () => ({ busy: sending, message: { en: 'Sending 1 email', vi: 'Đang gửi 1 email' } }));
      const waiting = await app.service.handlers()['updates.restart']({}, { host: 'electron' });
      expect(waiting).toMatchObject({ status: 'waiting', reasons: [{ source: 'emails.queue' }] });
      expect(fs.readFileSync(app.oldAppImage, 'utf8')).toContain('echo old');
      expect(app.quits).toEqual([]);

      sending = false;
      app.work.changed();
      await waitFor(
        () => app.quits.includes('quit'),
        'the app to quit into the update',
        () => ({ states: app.states.slice(-3), logs: app.logs.slice(-6), quits: app.quits }),
      );
      expect(app.service.state).toEqual({ status: 'installing', version: NEW_VERSION });
      // The AppImage on disk is now the downloaded, verified one.
      expect(createHash('sha512').update(fs.readFileSync(app.oldAppImage)).digest('hex')).toBe(createHash('sha512').update(payload).digest('hex'));
    }
  });

  it('offline: the failure is retried quietly until the server answers', async () => {
    online = false;
    const app = startApp();
    await waitFor(
      () => app.states.filter((s) => s.status === 'retrying').length >= 2,
      'two quiet retries',
      () => ({ states: app.states, logs: app.logs }),
    );
    expect(app.service.state).toMatchObject({ status: 'retrying' });
    online = true;
    await waitFor(
      () => app.service.state.status === 'ready',
      'the update after coming back online',
      () => ({ states: app.states.slice(-4), logs: app.logs.slice(-6) }),
    );
    expect(app.states.some((s) => s.status === 'retrying' && s.offline)).toBe(true);
    app.service.stop();
  });
});

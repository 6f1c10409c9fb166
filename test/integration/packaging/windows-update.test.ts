/**
 * Updates only from the release feed, shown on the packaged Windows configuration: electron-builder's
 * real packaging step (`--win nsis`, against a stand-in Electron) writes the packaged app's
 * app-update.yml, and the real electron-updater (its NSIS updater) is driven by our adapter from it.
 * The installer itself (makensis, a download) cannot be built here, so a hook stops the build right
 * after the app is packaged and app-update.yml is written.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../common/ipc/bus';
import { createUpdaterHost, type AutoUpdaterLike } from '../../../main/electron/updater/host';
import { UpdatesService } from '../../../main/services/updates/service';
import { realTimers } from '../../../main/services/updates/timers';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { runElectronBuilder } from './run-builder';
import { writeStandInWindowsElectron } from './stand-in-electron';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
type NsisUpdaterLike = AutoUpdaterLike & {
  httpExecutor: unknown;
  verifyUpdateCodeSignature: (publisherNames: string[], file: string) => Promise<string | null>;
};
const { NsisUpdater } = require('electron-updater/out/NsisUpdater') as { NsisUpdater: new (options: unknown, app: unknown) => NsisUpdaterLike };
const { NodeHttpExecutor } = require('builder-util/out/nodeHttpExecutor') as {
  NodeHttpExecutor: new () => { request(options: RequestOptions, token: unknown, data?: unknown): Promise<string | null> };
};
interface RequestOptions {
  protocol?: string | null;
  hostname?: string | null;
  port?: number | string | null;
  path?: string | null;
}

// electron-updater touches Electron's own module in a few places; in plain Node it only holds a path.
const electronEntry = require.resolve('electron');
const previousElectron = require.cache[electronEntry];
require.cache[electronEntry] = { id: electronEntry, filename: electronEntry, loaded: true, exports: { autoUpdater: new EventEmitter() } } as NodeJS.Module;

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const ELECTRON_VERSION = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
const STOP = 'STOP_AFTER_PACK';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const builderConfig = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as any;

let work: string;
let resources: string;

// Like package.test.ts: the CI ubuntu job runs it.
const onLinux = process.platform === 'linux';

beforeAll(async () => {
  if (!onLinux) return;
  if (!fs.existsSync(path.join(root, 'out', 'main', 'electron.cjs'))) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-packaging-win-'));
  const dist = writeStandInWindowsElectron(path.join(work, 'electron-dist'), ELECTRON_VERSION);
  // A user afterPack hook runs after electron-builder's own (which writes app-update.yml).
  const hook = path.join(work, 'stop-after-pack.cjs');
  fs.writeFileSync(hook, `module.exports = async () => { throw new Error('${STOP}: no NSIS here'); };\n`);
  const output = path.join(work, 'release');
  const result = await runElectronBuilder(
    root,
    [
      '--win',
      'nsis',
      '--x64',
      '--config',
      'electron-builder.yml',
      `-c.electronDist=${dist}`,
      `-c.electronVersion=${ELECTRON_VERSION}`,
      `-c.directories.output=${output}`,
      // Editing the binary's resources needs rcedit under Wine; app-update.yml does not depend on it.
      '-c.win.signAndEditExecutable=false',
      `-c.afterPack=${hook}`,
      '--publish',
      'never',
    ],
    150_000,
  );
  if (!result.output.includes(STOP)) throw new Error(`electron-builder did not reach the packaged app (${result.code}):\n${result.output}`);
  resources = path.join(output, 'win-unpacked', 'resources');
}, 240_000);

afterAll(() => {
  if (previousElectron) require.cache[electronEntry] = previousElectron;
  else delete require.cache[electronEntry];
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** electron-updater's HTTP, over Node: records every URL; only this machine is reachable (as if offline otherwise). */
class RecordingExecutor extends NodeHttpExecutor {
  readonly urls: string[] = [];
  override request(options: RequestOptions, token: unknown, data?: unknown): Promise<string | null> {
    this.urls.push(`${options.protocol ?? 'https:'}//${options.hostname}${options.port ? `:${options.port}` : ''}${options.path ?? ''}`);
    if (options.hostname === '127.0.0.1') return super.request(options, token, data);
    return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${options.hostname}`), { code: 'ENOTFOUND' }));
  }
}

/** The real NSIS updater, with Electron's `app` as electron-updater sees it in an installed (or a development) run. */
function nsisUpdater(isPackaged: boolean) {
  const dir = fs.mkdtempSync(path.join(work, 'run-'));
  const updater = new NsisUpdater(null, {
    version: '0.1.0',
    name: 'einvoice-desk',
    isPackaged,
    appUpdateConfigPath: path.join(resources, 'app-update.yml'),
    userDataPath: path.join(dir, 'user-data'),
    baseCachePath: path.join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  });
  const executor = new RecordingExecutor();
  updater.httpExecutor = executor;
  return { updater, executor, dir };
}

let server: http.Server | undefined;
const served: string[] = [];
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** The override's target: a feed server on this machine that records what it is asked for. */
async function overrideServer(): Promise<string> {
  served.length = 0;
  server = http.createServer((req, res) => {
    served.push(req.url ?? '');
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed?token=s3cr3t`;
}

function startApp(isPackaged: boolean, env: Record<string, string>) {
  const { updater, executor, dir } = nsisUpdater(isPackaged);
  const logs: string[] = [];
  const log = (_level: string, message: string) => void logs.push(message);
  const service = new UpdatesService({
    bus: new EventBus(),
    dataDir: path.join(dir, 'data'),
    work: new WorkInProgress(),
    timers: realTimers,
    log,
    policy: { initialDelayMs: 0, offlineMinMs: 60_000, errorMinMs: 60_000 },
  });
  service.attach(
    createUpdaterHost({
      getAutoUpdater: () => updater,
      onProgress: (p) => service.progress(p),
      isPackaged,
      platform: 'win32',
      resourcesPath: resources,
      configDir: path.join(dir, 'data'),
      env,
      argv: ['eInvoice Desk.exe'],
      log,
    }),
  );
  return { service, executor, logs };
}

async function waitFor(predicate: () => boolean, what: string, detail: () => unknown): Promise<void> {
  const end = Date.now() + 20_000;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${JSON.stringify(detail(), null, 1)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.runIf(onLinux)('the packaged Windows app (electron-builder --win, stand-in Electron) updates only from the release feed', () => {
  it("names the publisher in app-update.yml, and electron-updater checks a download's signature against it", async () => {
    const config = yaml.load(fs.readFileSync(path.join(resources, 'app-update.yml'), 'utf8')) as { publisherName?: string[] };
    expect(config).toMatchObject({ provider: 'github', owner: 'einvoice-desk', repo: 'einvoice-desk', releaseType: 'release' });
    const publisherName = config.publisherName ?? [];
    expect(publisherName.length).toBeGreaterThan(0);
    expect(publisherName).toEqual([builderConfig.win.signtoolOptions?.publisherName].flat());

    // What the NSIS updater does with a downloaded installer before running it.
    const { updater, dir } = nsisUpdater(true);
    const asked: Array<[string[], string]> = [];
    updater.verifyUpdateCodeSignature = async (names, file) => {
      asked.push([names, file]);
      return 'not signed by the publisher';
    };
    const download = path.join(dir, 'eInvoice-Desk-Setup-0.2.0.exe');
    fs.writeFileSync(download, 'MZ unsigned');
    const verdict = await (updater as unknown as { verifySignature(file: string): Promise<string | null> }).verifySignature(download);
    expect(asked).toEqual([[publisherName, download]]);
    expect(verdict).toBe('not signed by the publisher');
  });

  it('packaged, EINVOICE_UPDATE_URL is ignored: the updater asks GitHub releases, never the override', async () => {
    const url = await overrideServer();
    const app = startApp(true, { EINVOICE_UPDATE_URL: url });
    await waitFor(
      () => app.executor.urls.length > 0 && app.service.state.status === 'retrying',
      'the first check',
      () => ({ state: app.service.state, urls: app.executor.urls, logs: app.logs }),
    );
    app.service.stop();
    expect(app.executor.urls[0]).toMatch(/^https:\/\/github\.com\/einvoice-desk\/einvoice-desk\/releases\.atom/);
    expect(app.executor.urls.filter((u) => u.includes('127.0.0.1'))).toEqual([]);
    expect(served).toEqual([]);
    expect(app.logs).toContain(`updater: ignored EINVOICE_UPDATE_URL=${url.split('?')[0]}: a packaged build updates only from the release feed`);
    expect(app.logs.join('\n')).not.toContain('s3cr3t');
  });

  it('unpackaged (a development run), the same EINVOICE_UPDATE_URL is used', async () => {
    const url = await overrideServer();
    const app = startApp(false, { EINVOICE_UPDATE_URL: url });
    await waitFor(
      () => served.length > 0,
      'a request at the override',
      () => ({ state: app.service.state, urls: app.executor.urls, logs: app.logs }),
    );
    app.service.stop();
    // The generic provider's manifest for the platform the test runs on (latest.yml on Windows).
    expect(served[0]).toMatch(/^\/feed\/latest(-linux)?\.yml\?token=s3cr3t$/);
    expect(app.executor.urls.filter((u) => u.includes('github.com'))).toEqual([]);
    expect(app.logs.join('\n')).not.toContain('ignored');
  });
});

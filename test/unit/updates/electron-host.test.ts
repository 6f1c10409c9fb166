import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../common/ipc/bus';
import { createUpdaterHost, type AutoUpdaterLike } from '../../../main/electron/updater/host';
import { DEFAULT_POLICY } from '../../../main/services/updates/controller';
import { UpdatesService } from '../../../main/services/updates/service';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { FakeClock, settle } from './fakes';

/** Stands in for electron-updater's autoUpdater: records what the adapter does with it. */
class StandInAutoUpdater extends EventEmitter {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  allowPrerelease = true;
  allowDowngrade = true;
  forceDevUpdateConfig = false;
  updateConfigPath: string | null = null;
  logger: unknown = null;
  feeds: unknown[] = [];
  checks = 0;
  downloads = 0;
  installs: Array<[boolean | undefined, boolean | undefined]> = [];
  available: string | null = null;
  failWith: Error | undefined;
  private finish: (() => void) | undefined;

  setFeedURL(options: unknown) {
    this.feeds.push(options);
  }
  async checkForUpdates() {
    this.checks++;
    if (this.failWith) {
      // electron-updater emits 'error' and rejects.
      this.emit('error', this.failWith);
      throw this.failWith;
    }
    return { isUpdateAvailable: this.available !== null, updateInfo: { version: this.available ?? '0.1.0' } };
  }
  downloadUpdate() {
    this.downloads++;
    return new Promise<string[]>((resolve) => (this.finish = () => resolve(['/tmp/x'])));
  }
  completeDownload() {
    this.finish?.();
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tmp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

function setup(opts: { env?: Record<string, string>; isPackaged?: boolean; platform?: string; resources?: Record<string, string> }) {
  const clock = new FakeClock();
  const bus = new EventBus();
  const logs: string[] = [];
  const log = (_level: string, message: string) => void logs.push(message);
  const service = new UpdatesService({ bus, dataDir: tmp('updates-host-'), work: new WorkInProgress({ timers: clock }), timers: clock, now: clock.now, log });
  const resourcesPath = tmp('resources-');
  for (const [name, content] of Object.entries(opts.resources ?? {})) fs.writeFileSync(path.join(resourcesPath, name), content);
  const updater = new StandInAutoUpdater();
  let loaded = 0;
  service.attach(
    createUpdaterHost({
      getAutoUpdater: () => {
        loaded++;
        return updater as unknown as AutoUpdaterLike;
      },
      onProgress: (p) => service.progress(p),
      isPackaged: opts.isPackaged ?? true,
      platform: opts.platform ?? 'win32',
      resourcesPath,
      configDir: tmp('config-'),
      env: opts.env ?? {},
      argv: ['app'],
      log,
    }),
  );
  return { clock, service, updater, logs, loaded: () => loaded, h: service.handlers() };
}

const ctx = { host: 'electron' as const };
const GITHUB_FEED = { 'app-update.yml': 'provider: github\nowner: einvoice-desk\nrepo: einvoice-desk\n' };

describe('the Electron adapter over electron-updater', () => {
  it('with ELECTRON_NO_UPDATER=1 electron-updater is never even loaded', async () => {
    const s = setup({ env: { ELECTRON_NO_UPDATER: '1' }, resources: GITHUB_FEED });
    await s.h['updates.check']({}, ctx);
    await s.clock.advance(7 * 24 * 3600_000);
    expect(s.loaded()).toBe(0);
    expect(s.service.state).toEqual({ status: 'disabled', reason: 'env' });
  });

  it('a development run (unpackaged, no test URL) and a per-machine build (no app-update.yml) stay off', async () => {
    for (const s of [setup({ isPackaged: false }), setup({ isPackaged: true })]) {
      await s.clock.advance(DEFAULT_POLICY.initialDelayMs * 10);
      expect(s.loaded()).toBe(0);
      expect(s.service.state).toEqual({ status: 'disabled', reason: 'unsupported' });
    }
  });

  it('an installed build reads GitHub through app-update.yml: no feed override, no automatic download', async () => {
    const s = setup({ platform: 'linux', resources: { ...GITHUB_FEED, 'package-type': 'deb' } });
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(s.updater.checks).toBe(1);
    expect(s.updater.feeds).toEqual([]);
    expect(s.updater.autoDownload).toBe(false);
    expect(s.updater.autoInstallOnAppQuit).toBe(true);
    expect(s.updater.allowPrerelease).toBe(false);
    expect(s.updater.listenerCount('error')).toBe(1);
    expect(s.service.state.status).toBe('idle');
  });

  it('EINVOICE_UPDATE_URL: generic feed; downloads, reports progress, and restarts silently into the update', async () => {
    const s = setup({ isPackaged: false, env: { EINVOICE_UPDATE_URL: 'http://127.0.0.1:45123/feed' } });
    s.updater.available = '0.2.0';
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(s.updater.feeds).toEqual([{ provider: 'generic', url: 'http://127.0.0.1:45123/feed/' }]);
    expect(s.updater.forceDevUpdateConfig).toBe(true);
    expect(fs.readFileSync(s.updater.updateConfigPath!, 'utf8')).toContain('updaterCacheDirName: einvoice-desk-updater');
    expect(s.updater.downloads).toBe(1);
    s.updater.emit('download-progress', { percent: 37.5, transferred: 375, total: 1000, delta: 10, bytesPerSecond: 100 });
    expect(s.service.state).toMatchObject({ status: 'downloading', version: '0.2.0', percent: 37.5 });
    s.updater.completeDownload();
    await settle();
    expect(s.service.state).toEqual({ status: 'ready', version: '0.2.0' });
    expect(await s.h['updates.restart']({}, ctx)).toEqual({ status: 'installing', version: '0.2.0' });
    expect(s.updater.installs).toEqual([[true, true]]);
  });

  it('updates only from the release feed: packaged, EINVOICE_UPDATE_URL is ignored (and logged without its query); unpackaged, it is used', async () => {
    const env = { EINVOICE_UPDATE_URL: 'http://127.0.0.1:45123/feed?token=s3cr3t' };
    const packaged = setup({ isPackaged: true, platform: 'win32', env, resources: GITHUB_FEED });
    packaged.updater.available = '0.2.0';
    await packaged.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(packaged.updater.checks).toBe(1);
    // electron-updater keeps reading the packaged app-update.yml: no feed set, no dev config forced.
    expect(packaged.updater.feeds).toEqual([]);
    expect(packaged.updater.forceDevUpdateConfig).toBe(false);
    expect(packaged.updater.updateConfigPath).toBeNull();
    expect(packaged.logs).toContain('updater: ignored EINVOICE_UPDATE_URL=http://127.0.0.1:45123/feed: a packaged build updates only from the release feed');
    expect(packaged.logs).toContain('updater: on (GitHub releases)');
    expect(packaged.logs.join('\n')).not.toContain('s3cr3t');

    const dev = setup({ isPackaged: false, platform: 'win32', env });
    await dev.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(dev.updater.feeds).toEqual([{ provider: 'generic', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:45123\/feed/) }]);
    expect(dev.updater.forceDevUpdateConfig).toBe(true);
    expect(dev.logs.join('\n')).not.toContain('ignored');
    expect(dev.logs.join('\n')).not.toContain('s3cr3t');
  });

  it('an offline check is retried quietly: the error event is handled, nothing throws', async () => {
    const s = setup({ isPackaged: false, env: { EINVOICE_UPDATE_URL: 'http://127.0.0.1:45123/' } });
    s.updater.failWith = new Error('net::ERR_INTERNET_DISCONNECTED');
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(s.service.state).toMatchObject({ status: 'retrying', offline: true, attempt: 1 });
    s.updater.failWith = undefined;
    await s.clock.advance(DEFAULT_POLICY.offlineMinMs);
    expect(s.service.state.status).toBe('idle');
    expect(s.updater.checks).toBe(2);
  });

  it('turning the setting off stops checks and the install-on-quit', async () => {
    const s = setup({ resources: GITHUB_FEED });
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(s.updater.autoInstallOnAppQuit).toBe(true);
    await s.h['updates.setEnabled']({ enabled: false }, ctx);
    expect(s.updater.autoInstallOnAppQuit).toBe(false);
    await s.clock.advance(DEFAULT_POLICY.intervalMs * 3);
    expect(s.updater.checks).toBe(1);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { AppUpdater } from 'electron-updater';
import type { UpdateDriver } from '../../services/updates/controller';
import { resolveUpdaterMode, type UpdateFeed, type UpdaterMode } from '../../services/updates/mode';
import type { UpdaterHost } from '../../services/updates/service';

/** The part of electron-updater's AppUpdater the adapter uses (so tests can hand in a stand-in). */
export type AutoUpdaterLike = Pick<
  AppUpdater,
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'allowPrerelease'
  | 'allowDowngrade'
  | 'forceDevUpdateConfig'
  | 'updateConfigPath'
  | 'logger'
  | 'setFeedURL'
  | 'checkForUpdates'
  | 'downloadUpdate'
  | 'quitAndInstall'
  | 'on'
>;

export interface UpdaterHostDeps {
  /** electron-updater's `autoUpdater` is a lazy getter: called only once updates are on. */
  getAutoUpdater: () => AutoUpdaterLike;
  /** The download progress sink (UpdatesService.progress). */
  onProgress: (progress: { percent: number; transferred: number; total: number }) => void;
  isPackaged: boolean;
  platform: string;
  resourcesPath: string;
  /** Where the test feed's update config is written (the data folder). */
  configDir: string;
  env: Record<string, string | undefined>;
  argv: readonly string[];
  mas?: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** How this Linux build was installed: AppImage (APPIMAGE env) or a package (electron-builder's `resources/package-type`). */
function linuxPackage(env: Record<string, string | undefined>, resourcesPath: string): 'appimage' | 'deb' | 'rpm' | 'pacman' | null {
  if (env.APPIMAGE) return 'appimage';
  try {
    const kind = fs.readFileSync(path.join(resourcesPath, 'package-type'), 'utf8').trim();
    return kind === 'deb' || kind === 'rpm' || kind === 'pacman' ? kind : null;
  } catch {
    return null;
  }
}

/**
 * Adapts electron-updater to the `UpdaterHost` the Electron-free UpdatesService drives. All decisions
 * (when to check, download, install) are the state machine's; this only translates. No dialogs.
 */
export function createUpdaterHost(deps: UpdaterHostDeps): UpdaterHost {
  const log = deps.log ?? (() => {});
  let updater: AutoUpdaterLike | undefined;
  let configuredFeed: string | undefined;
  let active = false;
  let mode: UpdaterMode | undefined;

  const load = (): AutoUpdaterLike => {
    if (updater) return updater;
    const target = deps.getAutoUpdater();
    target.logger = {
      info: (message?: unknown) => log('info', `electron-updater: ${String(message)}`),
      warn: (message?: unknown) => log('warn', `electron-updater: ${String(message)}`),
      error: (message?: unknown) => log('warn', `electron-updater: ${String(message)}`),
    };
    // The state machine decides when to download and when to install.
    target.autoDownload = false;
    target.autoInstallOnAppQuit = active;
    target.allowPrerelease = false;
    target.allowDowngrade = false;
    // An 'error' event without a listener would throw; failures reach the machine as rejections.
    target.on('error', (error) => log('info', `updater: ${error instanceof Error ? error.message : String(error)}`));
    target.on('download-progress', (info) => deps.onProgress({ percent: info.percent, transferred: info.transferred, total: info.total }));
    updater = target;
    return target;
  };

  const useFeed = (target: AutoUpdaterLike, feed: UpdateFeed): void => {
    const key = feed.provider === 'generic' ? feed.url : 'github';
    if (configuredFeed === key) return;
    configuredFeed = key;
    if (feed.provider === 'generic') {
      // resolveUpdaterMode never gives a packaged build another feed; this adapter refuses it too.
      if (deps.isPackaged) throw new Error('a packaged build updates only from the release feed');
      // Tests point the app at their own update server; an unpackaged app must then be allowed to
      // update, and electron-updater still reads its download cache folder from an update config
      // file (app-update.yml is absent when unpackaged), so one is written for the test feed.
      const file = path.join(deps.configDir, 'test-update-feed.yml');
      fs.mkdirSync(deps.configDir, { recursive: true });
      fs.writeFileSync(file, `provider: generic\nurl: ${JSON.stringify(feed.url)}\nupdaterCacheDirName: einvoice-desk-updater\n`);
      target.forceDevUpdateConfig = true;
      // Setting the path resets the provider, so the feed URL comes after it.
      target.updateConfigPath = file;
      target.setFeedURL({ provider: 'generic', url: feed.url });
    }
    // github: the app-update.yml electron-builder writes into the package (from `publish`).
  };

  const driver: UpdateDriver = {
    async check() {
      if (!mode?.enabled) return null;
      const target = load();
      useFeed(target, mode.feed);
      const result = await target.checkForUpdates();
      if (!result || !result.isUpdateAvailable) return null;
      return { version: result.updateInfo.version };
    },
    async download() {
      await load().downloadUpdate();
    },
    install() {
      if (!updater) throw new Error('no update was downloaded');
      // Silent (no installer UI on Windows) and start the app again afterwards.
      updater.quitAndInstall(true, true);
    },
  };

  return {
    driver,
    resolveMode: (settingEnabled) => {
      mode = resolveUpdaterMode({
        env: deps.env,
        argv: deps.argv,
        isPackaged: deps.isPackaged,
        platform: deps.platform,
        settingEnabled,
        linuxPackage: deps.platform === 'linux' ? linuxPackage(deps.env, deps.resourcesPath) : null,
        masBuild: deps.mas === true,
        hasUpdateConfig: deps.isPackaged ? fs.existsSync(path.join(deps.resourcesPath, 'app-update.yml')) : undefined,
      });
      return mode;
    },
    setActive: (on) => {
      active = on;
      if (updater) updater.autoInstallOnAppQuit = on;
    },
  };
}

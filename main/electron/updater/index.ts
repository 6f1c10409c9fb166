import { app } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { autoUpdater, type AppUpdater } from 'electron-updater';
import type { UpdateDriver } from '../../services/updates/controller';
import { resolveUpdaterMode, type UpdateFeed, type UpdaterMode } from '../../services/updates/mode';
import type { UpdatesService } from '../../services/updates/service';

export interface StartUpdaterOptions {
  updates: UpdatesService;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  env?: NodeJS.ProcessEnv;
  argv?: readonly string[];
}

/** How this Linux build was installed: AppImage (APPIMAGE env) or a package (electron-builder's `resources/package-type`). */
function linuxPackage(env: NodeJS.ProcessEnv): 'appimage' | 'deb' | 'rpm' | 'pacman' | null {
  if (env.APPIMAGE) return 'appimage';
  try {
    const kind = fs.readFileSync(path.join(process.resourcesPath, 'package-type'), 'utf8').trim();
    return kind === 'deb' || kind === 'rpm' || kind === 'pacman' ? kind : null;
  } catch {
    return null;
  }
}

/**
 * The Electron half of the updater, kept thin: decides the mode from the environment and the
 * setting (pure `resolveUpdaterMode`), adapts electron-updater's autoUpdater to the `UpdateDriver`
 * the state machine in `main/services/updates` drives, and feeds download progress back. No dialogs:
 * what staff see is the `updates.state` event the renderer's banner shows.
 */
export function startUpdater(options: StartUpdaterOptions): void {
  const { updates } = options;
  const env = options.env ?? process.env;
  const argv = options.argv ?? process.argv;
  const log = options.log ?? (() => {});
  let updater: AppUpdater | undefined;
  let configuredFeed: string | undefined;
  let active = false;
  let mode: UpdaterMode | undefined;

  // electron-updater's `autoUpdater` is a lazy getter: the platform updater is created on first use,
  // so with updates off (managed fleets) it is never instantiated.
  const load = (): AppUpdater => {
    if (updater) return updater;
    autoUpdater.logger = {
      info: (message?: unknown) => log('info', `electron-updater: ${String(message)}`),
      warn: (message?: unknown) => log('warn', `electron-updater: ${String(message)}`),
      error: (message?: unknown) => log('warn', `electron-updater: ${String(message)}`),
    };
    // The state machine decides when to download and when to install.
    autoUpdater.autoDownload = false;
    autoUpdater.autoInstallOnAppQuit = active;
    autoUpdater.allowPrerelease = false;
    autoUpdater.allowDowngrade = false;
    // An 'error' event without a listener would throw; failures reach the machine as rejections.
    autoUpdater.on('error', (error) => log('info', `updater: ${error instanceof Error ? error.message : String(error)}`));
    autoUpdater.on('download-progress', (info) =>
      updates.progress({ percent: info.percent, transferred: info.transferred, total: info.total }),
    );
    updater = autoUpdater;
    return autoUpdater;
  };

  const useFeed = (target: AppUpdater, feed: UpdateFeed): void => {
    const key = feed.provider === 'generic' ? feed.url : 'github';
    if (configuredFeed === key) return;
    configuredFeed = key;
    if (feed.provider === 'generic') {
      // Tests point the app at their own update server; the unpackaged app must then be allowed to update.
      target.forceDevUpdateConfig = true;
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
      const target = load();
      await target.downloadUpdate();
    },
    install() {
      if (!updater) throw new Error('no update was downloaded');
      // Silent (no installer UI on Windows) and start the app again afterwards.
      updater.quitAndInstall(true, true);
    },
  };

  updates.attach({
    driver,
    resolveMode: (settingEnabled) => {
      mode = resolveUpdaterMode({
        env,
        argv,
        isPackaged: app.isPackaged,
        platform: process.platform,
        settingEnabled,
        linuxPackage: process.platform === 'linux' ? linuxPackage(env) : null,
        masBuild: process.mas === true,
        hasUpdateConfig: app.isPackaged ? fs.existsSync(path.join(process.resourcesPath, 'app-update.yml')) : undefined,
      });
      return mode;
    },
    setActive: (on) => {
      active = on;
      if (updater) updater.autoInstallOnAppQuit = on;
    },
  });
}

import { app } from 'electron';
import { autoUpdater } from 'electron-updater';
import type { UpdatesService } from '../../services/updates/service';
import { createUpdaterHost } from './host';

export interface StartUpdaterOptions {
  updates: UpdatesService;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  env?: NodeJS.ProcessEnv;
  argv?: readonly string[];
}

/**
 * Starts the updater after the main window exists: the Electron facts (packaged? where are the
 * resources?) and electron-updater's autoUpdater go into the adapter (`host.ts`), which the
 * Electron-free UpdatesService drives. Off with ELECTRON_NO_UPDATER=1 or the in-app setting.
 */
export function startUpdater(options: StartUpdaterOptions): void {
  options.updates.attach(
    createUpdaterHost({
      // A lazy getter in electron-updater: the platform updater is only created when updates are on.
      getAutoUpdater: () => autoUpdater,
      onProgress: (progress) => options.updates.progress(progress),
      isPackaged: app.isPackaged,
      platform: process.platform,
      resourcesPath: process.resourcesPath,
      configDir: app.getPath('userData'),
      env: options.env ?? process.env,
      argv: options.argv ?? process.argv,
      mas: process.mas === true,
      log: options.log,
    }),
  );
}

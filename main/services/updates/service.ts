import fs from 'node:fs';
import path from 'node:path';
import type { UpdateState } from '../../../common/calls/updates';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { notReadyError, UpdateController, type UpdateDriver, type UpdatePolicy } from './controller';
import { urlForLog, type UpdaterMode } from './mode';
import { realTimers, type Timers } from './timers';
import { type WorkInProgress } from './work-in-progress';

export type UpdatesHandlers = Pick<
  ContractHandlers,
  'updates.status' | 'updates.check' | 'updates.restart' | 'updates.cancelRestart' | 'updates.setEnabled' | 'updates.declareWork'
>;

export interface UpdatesServiceDeps {
  bus: EventBus;
  dataDir: string;
  work: WorkInProgress;
  now?: () => Date;
  timers?: Timers;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  policy?: Partial<UpdatePolicy>;
}

/** What the Electron host gives the service: the driver over electron-updater and how to decide the mode. */
export interface UpdaterHost {
  driver: UpdateDriver;
  /** Re-evaluated on attach and whenever the in-app setting changes. */
  resolveMode: (settingEnabled: boolean) => UpdaterMode;
  /** Told whether updates are on, e.g. to set electron-updater's `autoInstallOnAppQuit`. */
  setActive?: (active: boolean) => void;
}

const SETTINGS_FILE = 'updates.json';
/** Renderer declarations are namespaced so they never clash with a service's probe. */
const RENDERER_PREFIX = 'renderer:';
/** The renderer is untrusted input: it cannot grow the registry without bound. */
const MAX_RENDERER_DECLARATIONS = 32;

/**
 * The updates capability inside Services: owns the in-app on/off setting (`updates.json` in the data
 * folder), the work-in-progress registry and, once the Electron host attaches a driver, the state
 * machine. Hosts without an updater (browser host, CLI) stay `disabled: unsupported`.
 */
export class UpdatesService {
  readonly work: WorkInProgress;
  private controller: UpdateController | undefined;
  private host: UpdaterHost | undefined;
  private current: UpdateState = { status: 'disabled', reason: 'unsupported' };
  private readonly rendererKeys = new Set<string>();

  constructor(private readonly deps: UpdatesServiceDeps) {
    this.work = deps.work;
  }

  get state(): UpdateState {
    return this.controller?.isRunning ? this.controller.state : this.current;
  }

  /** The in-app switch; on unless Settings turned it off. */
  settingEnabled(): boolean {
    try {
      const raw = JSON.parse(fs.readFileSync(this.settingsPath(), 'utf8')) as { enabled?: unknown };
      return raw.enabled !== false;
    } catch {
      return true;
    }
  }

  async setEnabled(enabled: boolean): Promise<UpdateState> {
    await fs.promises.writeFile(this.settingsPath(), `${JSON.stringify({ enabled }, null, 2)}\n`, 'utf8');
    if (this.host) this.apply();
    else if (!enabled) this.setDisabled('setting');
    return this.state;
  }

  /** Called once by the Electron host after the window exists. */
  attach(host: UpdaterHost): void {
    this.host = host;
    this.controller?.stop();
    this.controller = new UpdateController({
      driver: host.driver,
      work: this.work,
      timers: this.deps.timers ?? realTimers,
      now: this.deps.now ?? (() => new Date()),
      publish: (state) => this.publish(state),
      log: this.deps.log,
      policy: this.deps.policy,
    });
    this.apply();
  }

  /** The driver's download progress (electron-updater's `download-progress`). */
  progress(update: { percent: number; transferred: number; total: number }): void {
    this.controller?.progress(update);
  }

  stop(): void {
    this.controller?.stop();
  }

  handlers(): UpdatesHandlers {
    return {
      'updates.status': () => this.state,
      'updates.check': async () => (this.controller?.isRunning ? this.controller.checkNow() : this.state),
      'updates.restart': async () => {
        if (!this.controller?.isRunning) throw notReadyError();
        return this.controller.requestInstall();
      },
      'updates.cancelRestart': () => (this.controller?.isRunning ? this.controller.cancelInstall() : this.state),
      'updates.setEnabled': ({ enabled }) => this.setEnabled(enabled),
      'updates.declareWork': ({ key, busy, message }) => {
        const source = `${RENDERER_PREFIX}${key}`;
        if (busy) {
          if (!this.rendererKeys.has(source) && this.rendererKeys.size >= MAX_RENDERER_DECLARATIONS) {
            throw new AppError('too_many_declarations', {
              en: `At most ${MAX_RENDERER_DECLARATIONS} pieces of work can be declared at once.`,
              vi: `Chỉ có thể khai báo tối đa ${MAX_RENDERER_DECLARATIONS} công việc cùng lúc.`,
            });
          }
          this.rendererKeys.add(source);
          this.work.declare(source, message);
        } else {
          this.rendererKeys.delete(source);
          this.work.clear(source);
        }
        return { ok: true as const };
      },
    };
  }

  private apply(): void {
    const host = this.host;
    const controller = this.controller;
    if (!host || !controller) return;
    let mode: UpdaterMode;
    try {
      mode = host.resolveMode(this.settingEnabled());
    } catch (error) {
      mode = { enabled: false, reason: 'unsupported', detail: error instanceof Error ? error.message : String(error) };
    }
    if (mode.ignored) this.deps.log?.('warn', `updater: ignored ${mode.ignored}: a packaged build updates only from the release feed`);
    host.setActive?.(mode.enabled);
    if (!mode.enabled) {
      controller.stop();
      this.deps.log?.('info', `updater: off (${mode.detail})`);
      this.setDisabled(mode.reason);
      return;
    }
    this.deps.log?.('info', `updater: on (${mode.feed.provider === 'generic' ? urlForLog(mode.feed.url) : 'GitHub releases'})`);
    controller.start();
  }

  private setDisabled(reason: 'setting' | 'env' | 'unsupported'): void {
    this.publish({ status: 'disabled', reason });
  }

  private publish(state: UpdateState): void {
    this.current = state;
    this.deps.bus.emit('updates.state', state);
  }

  private settingsPath(): string {
    return path.join(this.deps.dataDir, SETTINGS_FILE);
  }
}

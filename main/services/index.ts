import fs from 'node:fs';
import { EventBus } from '../../common/ipc/bus';
import { createDispatch, type ContractHandlers, type Dispatch } from '../../common/ipc/dispatch';
import { appHandlers } from './app/handlers';
import type { ServicesConfig } from './config';
import type { AuthService } from './auth';
import type { Connectivity } from './connectivity/connectivity';
import { createConnections } from './profiles/connections';
import type { ProfileService } from './profiles';
import type { SecretStore } from './secrets';
import type { SettingsService } from './settings/settings';
import type { Store } from './store';
import { UpdatesService } from './updates/service';
import { WorkInProgress } from './updates/work-in-progress';

export interface Services {
  readonly config: ServicesConfig;
  readonly bus: EventBus;
  readonly handlers: ContractHandlers;
  readonly dispatch: Dispatch;
  readonly connectivity: Connectivity;
  /** The database (einvoice.db); later capabilities add tables through store/migrations.ts. */
  readonly store: Store;
  readonly secrets: SecretStore;
  readonly profiles: ProfileService;
  /** Sign-in; long-running work awaits `auth.gate.ready()` and calls `auth.gate.reportAuthFailure()`. */
  readonly auth: AuthService;
  readonly settings: SettingsService;
  /** Register a probe here when your service has work an app restart would break (see updates/work-in-progress.ts). */
  readonly work: WorkInProgress;
  readonly updates: UpdatesService;
  close(): Promise<void>;
}

/**
 * The composition root: builds every Electron-free service from one config and joins their
 * handler maps into the one object every host (Electron, browser host, CLI) talks to.
 */
export async function createServices(config: ServicesConfig): Promise<Services> {
  await fs.promises.mkdir(config.dataDir, { recursive: true });
  const bus = new EventBus();
  const log = config.log ?? (() => {});
  const closers: Array<() => Promise<void> | void> = [];
  // Built first so every service can register its work-in-progress probe with it.
  const work = new WorkInProgress();
  const updates = new UpdatesService({ bus, dataDir: config.dataDir, work, now: config.now, log });
  closers.push(() => updates.stop());

  // Database, keychain, connection profiles, sign-in, settings and the connectivity monitor.
  const connections = await createConnections({ dataDir: config.dataDir, bus, now: config.now, log });
  closers.push(() => connections.close());
  const { connectivity, store, secrets, profiles, auth, settings } = connections;

  const handlers: ContractHandlers = {
    ...appHandlers({ config, connectivity, connectionKind: connections.connectionKind }),
    ...connections.handlers,
    ...updates.handlers(),
  };

  const dispatch = createDispatch(handlers, (name, error) =>
    log('error', `call ${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`),
  );
  connectivity.start();

  return {
    config,
    bus,
    handlers,
    dispatch,
    connectivity,
    store,
    secrets,
    profiles,
    auth,
    settings,
    work,
    updates,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

import fs from 'node:fs';
import { EventBus } from '../../common/ipc/bus';
import { createDispatch, type ContractHandlers, type Dispatch } from '../../common/ipc/dispatch';
import { appHandlers } from './app/handlers';
import type { ServicesConfig } from './config';
import { Connectivity } from './connectivity/connectivity';
import { UpdatesService } from './updates/service';
import { WorkInProgress } from './updates/work-in-progress';

export interface Services {
  readonly config: ServicesConfig;
  readonly bus: EventBus;
  readonly handlers: ContractHandlers;
  readonly dispatch: Dispatch;
  readonly connectivity: Connectivity;
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

  // Until connection profiles exist the active connection is the built-in sandbox, which is
  // in-process and therefore always reachable.
  const connectivity = new Connectivity({ bus, probe: async () => true, now: config.now });
  closers.push(() => connectivity.stop());

  const handlers: ContractHandlers = {
    ...appHandlers({ config, connectivity }),
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
    work,
    updates,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

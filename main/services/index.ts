import fs from 'node:fs';
import { EventBus } from '../../common/ipc/bus';
import { createDispatch, type ContractHandlers, type Dispatch } from '../../common/ipc/dispatch';
import { appHandlers } from './app/handlers';
import type { ServicesConfig } from './config';
import { Connectivity } from './connectivity/connectivity';

export interface Services {
  readonly config: ServicesConfig;
  readonly bus: EventBus;
  readonly handlers: ContractHandlers;
  readonly dispatch: Dispatch;
  readonly connectivity: Connectivity;
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

  // Until connection profiles exist the active connection is the built-in sandbox, which is
  // in-process and therefore always reachable.
  const connectivity = new Connectivity({ bus, probe: async () => true, now: config.now });
  closers.push(() => connectivity.stop());

  const handlers: ContractHandlers = {
    ...appHandlers({ config, connectivity }),
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
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

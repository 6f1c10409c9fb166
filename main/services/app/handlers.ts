import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { ServicesConfig } from '../config';
import type { Connectivity } from '../connectivity/connectivity';

export function appHandlers(deps: { config: ServicesConfig; connectivity: Connectivity }): Pick<ContractHandlers, 'app.info'> {
  const { config, connectivity } = deps;
  return {
    'app.info': () => ({
      version: config.version,
      dataDir: config.dataDir,
      connectionKind: 'sandbox',
      host: config.host,
      online: connectivity.online,
    }),
  };
}

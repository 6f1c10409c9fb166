import type { ConnectionKind } from '../../../common/calls/app';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { ServicesConfig } from '../config';
import type { Connectivity } from '../connectivity/connectivity';

export function appHandlers(deps: {
  config: ServicesConfig;
  connectivity: Connectivity;
  /** The kind of the active connection profile. */
  connectionKind?: () => ConnectionKind;
}): Pick<ContractHandlers, 'app.info'> {
  const { config, connectivity } = deps;
  return {
    'app.info': () => ({
      version: config.version,
      dataDir: config.dataDir,
      connectionKind: deps.connectionKind?.() ?? 'sandbox',
      host: config.host,
      online: connectivity.online,
    }),
  };
}

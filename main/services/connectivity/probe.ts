import type { ApiClient, ClientFactory } from '../api';
import type { Endpoint, ResolveEndpoint } from '../auth';
import type { Profile } from '../profiles';

/**
 * Online = the active profile's service answers HTTP at all (a 401 counts); never
 * navigator.onLine. One keep-alive client per address, replaced when the address changes.
 */
export function serviceProbe(deps: { active: () => Profile; resolveEndpoint: ResolveEndpoint; clients: ClientFactory }): {
  probe(signal: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
} {
  let current: { key: string; client: ApiClient } | undefined;
  return {
    async probe(signal) {
      let endpoint: Endpoint;
      try {
        endpoint = await deps.resolveEndpoint(deps.active());
      } catch {
        return false;
      }
      const key = `${endpoint.baseUrl}|${endpoint.tokenUrl ?? ''}`;
      if (current?.key !== key) {
        await current?.client.close();
        current = { key, client: deps.clients.forTarget(endpoint, 'probe') };
      }
      return await current.client.probe(signal);
    },
    async close() {
      await current?.client.close();
      current = undefined;
    },
  };
}

import { buildHostApi, type HostApi } from '../../../common/ipc/bridge';
import { callRoute, EVENTS_ROUTE, SECRET_HEADER, SECRET_PARAM } from '../../../common/ipc/channels';
import type { EventName } from '../../../common/contract';

const SECRET_KEY = 'einvoice.browserHostSecret';

/**
 * The browser host hands the per-launch secret over in the URL fragment (never sent to a
 * server); it is kept for this tab only and removed from the address bar.
 */
export function takeBrowserHostSecret(location: Location, storage: Storage, history: History): string | undefined {
  const match = /(?:^#|&)k=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem(SECRET_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return storage.getItem(SECRET_KEY) ?? undefined;
}

export function createHttpHost(secret: string): HostApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let source: EventSource | undefined;

  const ensureStream = (event: EventName) => {
    source ??= new EventSource(`${EVENTS_ROUTE}?${SECRET_PARAM}=${encodeURIComponent(secret)}`);
    if (!listeners.has(event)) {
      listeners.set(event, new Set());
      source.addEventListener(event, (message) => {
        let payload: unknown;
        try {
          payload = JSON.parse((message as MessageEvent<string>).data);
        } catch {
          return;
        }
        for (const listener of listeners.get(event) ?? []) listener(payload);
      });
    }
    return listeners.get(event)!;
  };

  return buildHostApi(
    async (name, request) => {
      const response = await fetch(callRoute(name), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
        body: JSON.stringify(request ?? {}),
      });
      return response.json();
    },
    (event, listener) => {
      const set = ensureStream(event);
      set.add(listener);
      return () => set.delete(listener);
    },
  );
}

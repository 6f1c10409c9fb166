import { buildHostApi, type HostApi } from '../../../common/ipc/bridge';
import { callRoute, EVENTS_ROUTE } from '../../../common/ipc/channels';
import type { EventName } from '../../../common/contract';

/**
 * The browser host exchanged the launch URL's one-time code for an HttpOnly cookie when it
 * served this page; the used code leaves the address bar (and the tab's history entry).
 */
export function dropLaunchCode(location: Location, history: History): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('launch')) return;
  params.delete('launch');
  const search = params.toString();
  history.replaceState(history.state, '', location.pathname + (search ? `?${search}` : '') + location.hash);
}

/** The contract over HTTP; the browser sends the host's cookie with every same-origin request. */
export function createHttpHost(): HostApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let source: EventSource | undefined;

  const ensureStream = (event: EventName) => {
    source ??= new EventSource(EVENTS_ROUTE);
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
        headers: { 'content-type': 'application/json' },
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

import { buildHostApi, type HostApi } from '../../../common/ipc/bridge';
import { callRoute, EVENTS_ROUTE } from '../../../common/ipc/channels';
import type { EventName } from '../../../common/contract';
import type { CallMessage, CallReply } from './http-calls.worker';
import { postCall } from './post-call';

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

type Send = (url: string, body: string) => Promise<unknown>;

/** The page's own fetch: where no worker thread starts. */
const sendHere: Send = async (url, body) => (await postCall(url, body)).json();

/**
 * Calls sent from a worker thread (`http-calls.worker.ts`: a long draft's save no longer holds the
 * page's thread while a cashier types). Started at the first call; until its script runs, and
 * where it cannot start or load, the calls go from the page (the first calls as the app starts
 * do not wait for the worker's script).
 */
function workerSender(): Send {
  let send: Send | undefined;
  const start = (): Send => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./http-calls.worker.ts', import.meta.url), { type: 'module', name: 'http-calls' });
    } catch (error) {
      console.warn('Calls go from the page: no worker thread could start.', error);
      return sendHere;
    }
    const pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
    let ready = false;
    let failed = false;
    let next = 0;
    worker.onmessage = (e: MessageEvent<CallReply>) => {
      const reply = e.data;
      if ('ready' in reply) {
        ready = true;
        return;
      }
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if ('error' in reply) call.reject(new TypeError(reply.error));
      else {
        try {
          call.resolve(JSON.parse(reply.text));
        } catch (error) {
          call.reject(error);
        }
      }
    };
    const fail = (why: string) => {
      console.warn('Calls go from the page: the worker thread failed.', why);
      worker.terminate();
      failed = true;
      // Whether a call handed over has left is not known: it fails as a lost connection does
      // (never sent twice).
      for (const call of pending.values()) call.reject(new TypeError('Failed to fetch'));
      pending.clear();
    };
    worker.onerror = (e) => fail(e.message || 'its script did not load');
    // An answer that cannot be read would leave its call waiting for ever (and every save behind it).
    worker.onmessageerror = () => fail('an answer could not be read');
    const viaWorker: Send = (url, body) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, url, body } satisfies CallMessage);
      });
    return (url, body) => (ready && !failed ? viaWorker : sendHere)(url, body);
  };
  // A page going away ends its worker with it, maybe before a call handed over has left: the last
  // save of a closing page goes from the page itself, as soon as the page is hidden.
  return (url, body) => (document.visibilityState === 'hidden' ? sendHere : (send ??= start()))(url, body);
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

  const send = workerSender();
  return buildHostApi(
    // An absolute address: a worker reads a relative one against its script's.
    (name, request) => send(new URL(callRoute(name), window.location.href).href, JSON.stringify(request ?? {})),
    (event, listener) => {
      const set = ensureStream(event);
      set.add(listener);
      return () => set.delete(listener);
    },
  );
}

import { callNames, events, type CallName, type CallRequest, type CallResponse, type EventName, type EventPayload } from '../contract';
import { ErrorPayloadSchema, type ErrorPayload } from '../errors';
import type { CallResult } from './result';

/** What a host exposes to the renderer; `window.einvoice` has exactly this shape. */
export type HostApi = {
  readonly [N in CallName]: (request: CallRequest<N>) => Promise<CallResult<N>>;
} & {
  on(event: EventName, listener: (payload: unknown) => void): () => void;
};

/** Builds a HostApi from two primitives; the preload and the HTTP bridge both use it. */
export function buildHostApi(
  invoke: (name: CallName, request: unknown) => Promise<unknown>,
  subscribe: (event: EventName, listener: (payload: unknown) => void) => () => void,
): HostApi {
  const api: Record<string, unknown> = {};
  for (const name of callNames) api[name] = (request: unknown) => invoke(name, request);
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!Object.hasOwn(events, event)) throw new Error(`Unknown event ${String(event)}`);
    return subscribe(event, listener);
  };
  return Object.freeze(api) as HostApi;
}

/** A failed call as seen by renderer code. */
export class CallError extends Error {
  readonly payload: ErrorPayload;
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = 'CallError';
    this.payload = payload;
  }
}

export interface Bridge {
  call<N extends CallName>(name: N, request: CallRequest<N>): Promise<CallResponse<N>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

const BROKEN_HOST: ErrorPayload = {
  code: 'bad_response',
  message: 'The app answered in a way the screen did not understand.',
  messageVi: 'Ứng dụng trả lời theo cách màn hình không hiểu được.',
};

/**
 * The renderer's typed bridge: unwraps results. A value is not parsed again here: the dispatch that
 * made it parsed it with its schema before it left (a broken one is an internal error there), and
 * parsing a page of rows twice delays the screen that waits for it. Errors and events are parsed.
 */
export function createBridge(host: HostApi): Bridge {
  return {
    async call(name, request) {
      const result = (await host[name](request as never)) as CallResult | undefined;
      if (!result || typeof result !== 'object') throw new CallError(BROKEN_HOST);
      if (result.ok === true) {
        if (!('value' in result)) throw new CallError(BROKEN_HOST);
        return result.value as CallResponse<typeof name>;
      }
      const error = ErrorPayloadSchema.safeParse(result.error);
      throw new CallError(error.success ? error.data : BROKEN_HOST);
    },
    on(event, listener) {
      return host.on(event, (payload) => {
        const parsed = events[event].safeParse(payload);
        if (parsed.success) listener(parsed.data as EventPayload<typeof event>);
      });
    },
  };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallName, CallRequest, CallResponse, EventName, EventPayload } from '../../../common/contract';
import { bridge } from '../bridge';

/** What an event does to the data: fetch it again, or fold the event's payload in (undefined or the current data: no change). */
export type LiveUpdate<R, E extends EventName> = 'reload' | ((payload: EventPayload<E>, current: R | undefined) => R | undefined);
export type LiveEvents<R> = { [E in EventName]?: LiveUpdate<R, E> };

export interface LiveOptions {
  /** Wait at least this long between reloads caused by events (a busy queue fires many). */
  throttleMs?: (payload: unknown) => number;
  onError?: (error: unknown) => void;
  /** An answer already on its way for this request (read ahead), taken instead of calling. */
  first?: (request: object) => Promise<unknown> | undefined;
  /**
   * An answer already in hand for this request (read ahead): the first render shows it, and on mount
   * nothing is called if `first` still hands over the answer then (it came back fresh).
   */
  ready?: (request: object) => unknown;
}

export interface Live<R> {
  data: R | undefined;
  error: unknown;
  /** Fetches again now; resolves to the new data (undefined when the call failed or was overtaken). */
  reload(): Promise<R | undefined>;
  /** Replaces the data with what an action returned. */
  set(update: (current: R | undefined) => R | undefined): void;
}

/**
 * Data that stays current: calls `call` with `request` (again whenever the request changes),
 * then keeps it up to date on the given events. An answer overtaken by a newer request or by an
 * event's payload is dropped.
 */
export function useLive<C extends CallName>(
  call: C,
  request: CallRequest<C>,
  events: LiveEvents<CallResponse<C>>,
  options: LiveOptions = {},
): Live<CallResponse<C>> {
  type R = CallResponse<C>;
  const key = JSON.stringify(request);
  const [state, setState] = useState<{ data: R | undefined; error: unknown }>(() => ({ data: options.ready?.(request) as R | undefined, error: undefined }));
  /** The request whose data came with the first render. */
  const given = useRef(state.data !== undefined ? key : null);
  const seq = useRef(0);
  const eventsRef = useRef(events);
  eventsRef.current = events;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const names = Object.keys(events).sort().join(',');

  const reload = useCallback(async (): Promise<R | undefined> => {
    const mine = ++seq.current;
    try {
      const request = JSON.parse(key) as CallRequest<C>;
      const data = ((await optionsRef.current.first?.(request)) as R | undefined) ?? (await bridge.call(call, request));
      if (mine !== seq.current) return undefined;
      setState({ data, error: undefined });
      return data;
    } catch (error) {
      if (mine === seq.current) {
        setState((s) => ({ ...s, error }));
        optionsRef.current.onError?.(error);
      }
      return undefined;
    }
  }, [call, key]);

  useEffect(() => {
    const shown = given.current === key;
    given.current = null;
    if (!shown || !optionsRef.current.first?.(JSON.parse(key) as object)) void reload();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const offs = (names ? names.split(',') : []).map((name) =>
      bridge.on(name as EventName, (payload: unknown) => {
        const update = eventsRef.current[name as EventName] as LiveUpdate<R, EventName> | undefined;
        if (update === 'reload') {
          const gap = optionsRef.current.throttleMs?.(payload) ?? 0;
          if (gap === 0) return void reload();
          if (timer) return;
          timer = setTimeout(
            () => {
              timer = undefined;
              last = Date.now();
              void reload();
            },
            Math.max(0, gap - (Date.now() - last)),
          );
        } else if (update) {
          setState((s) => {
            const next = update(payload as EventPayload<EventName>, s.data);
            if (next === undefined || next === s.data) return s;
            seq.current++;
            return { data: next, error: undefined };
          });
        }
      }),
    );
    return () => {
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
    };
  }, [reload, names]);

  const set = useCallback((update: (current: R | undefined) => R | undefined) => {
    setState((s) => {
      const next = update(s.data);
      if (next === undefined || next === s.data) return s;
      seq.current++;
      return { data: next, error: undefined };
    });
  }, []);

  return { data: state.data, error: state.error, reload, set };
}

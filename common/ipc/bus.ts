import type { EventName, EventPayload } from '../contract';

type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

/** A typed publish/subscribe for contract events; hosts forward what is published. */
export class EventBus {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();
  private readonly last = new Map<EventName, unknown>();
  private readonly any = new Set<(name: EventName, payload: unknown) => void>();

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.last.set(name, payload);
    for (const listener of this.listeners.get(name) ?? []) (listener as Listener<E>)(payload);
    for (const listener of this.any) listener(name, payload);
  }

  on<E extends EventName>(name: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** Every event, for transports that forward all of them. */
  onAny(listener: (name: EventName, payload: unknown) => void): () => void {
    this.any.add(listener);
    return () => this.any.delete(listener);
  }

  /** The latest payload of an event, so a window that opens later starts in the right state. */
  latest<E extends EventName>(name: E): EventPayload<E> | undefined {
    return this.last.get(name) as EventPayload<E> | undefined;
  }
}

/**
 * THE process boundary. Every call (request + response schema) and every event that crosses
 * between the renderer and main is listed here; the preload API, the Electron IPC
 * registration, the browser host's HTTP routes and the renderer's bridge are all derived from
 * these two maps by the generic code in `common/ipc/`. The receiving side always parses.
 */
import { z } from 'zod';

const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});
const noInput = z.object({}).strict();

export const ConnectionKindSchema = z.enum(['sandbox', 'test', 'production', 'custom']);
export type ConnectionKind = z.infer<typeof ConnectionKindSchema>;

export const calls = {
  'app.info': call(
    noInput,
    z.object({
      version: z.string(),
      dataDir: z.string(),
      connectionKind: ConnectionKindSchema,
      host: z.enum(['electron', 'browser', 'cli']),
      /** The latest `app.online` state, so a window that opens late starts right. */
      online: z.boolean(),
    }),
  ),
} as const;

export const events = {
  'app.online': z.object({
    online: z.boolean(),
    /** ISO timestamp of the check that decided it. */
    checkedAt: z.string(),
  }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallRequest<N extends CallName> = z.input<Calls[N]['request']>;
export type ParsedRequest<N extends CallName> = z.output<Calls[N]['request']>;
export type CallResponse<N extends CallName> = z.output<Calls[N]['response']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

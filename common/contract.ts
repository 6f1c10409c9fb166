/**
 * THE process boundary. Every call (request + response schema) and every event that crosses
 * between the renderer and main is listed here, one file per capability under `calls/`; the
 * preload API, the Electron IPC registration, the browser host's HTTP routes and the
 * renderer's bridge are all derived from these two maps by the generic code in `ipc/`.
 * A request is parsed where it is received, a response where it is made (both in the dispatch);
 * the renderer's bridge checks the envelope and parses errors and events. To add a capability: its file in `calls/`, one spread
 * below, a handler map in `main/services/<capability>/`, a screen in `renderer/src/`.
 */
import type { z } from 'zod';
import { appCalls, appEvents } from './calls/app';
import { diagnosticsCalls } from './calls/diagnostics';
import { authCalls, authEvents } from './calls/auth';
import { profilesCalls, profilesEvents } from './calls/profiles';
import { settingsCalls, settingsEvents } from './calls/settings';
import { updatesCalls, updatesEvents } from './calls/updates';
import { emailsCalls, emailsEvents } from './calls/emails';
import { draftsCalls, draftsEvents } from './calls/drafts';
import { cataloguesCalls, cataloguesEvents } from './calls/catalogues';
import { templatesCalls, templatesEvents } from './calls/templates';
import { previewCalls, previewEvents } from './calls/preview';
import { downloadsCalls, downloadsEvents } from './calls/downloads';
import { sandboxCalls } from './calls/sandbox';
import { issuingCalls, issuingEvents } from './calls/issuing';
import { registerCalls, registerEvents } from './calls/register';

export { ConnectionKindSchema, type ConnectionKind } from './calls/app';

export const calls = {
  ...appCalls,
  ...diagnosticsCalls,
  ...profilesCalls,
  ...authCalls,
  ...settingsCalls,
  ...updatesCalls,
  ...emailsCalls,
  ...draftsCalls,
  ...cataloguesCalls,
  ...templatesCalls,
  ...previewCalls,
  ...downloadsCalls,
  ...issuingCalls,
  ...registerCalls,
  ...sandboxCalls,
} as const;

export const events = {
  ...appEvents,
  ...profilesEvents,
  ...authEvents,
  ...settingsEvents,
  ...updatesEvents,
  ...emailsEvents,
  ...draftsEvents,
  ...cataloguesEvents,
  ...templatesEvents,
  ...previewEvents,
  ...downloadsEvents,
  ...issuingEvents,
  ...registerEvents,
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

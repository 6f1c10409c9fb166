import type { CallName, EventName } from '../contract';

/** Electron IPC channel names and browser-host routes, derived from contract names. */
export const callChannel = (name: CallName) => `einvoice:call:${name}`;
export const eventChannel = (name: EventName) => `einvoice:event:${name}`;
export const callRoute = (name: CallName) => `/api/call/${name}`;
export const EVENTS_ROUTE = '/api/events';
export const SECRET_HEADER = 'x-einvoice-secret';

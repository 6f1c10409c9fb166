import type { CallName, CallRequest } from '../../common/contract';

/**
 * One valid request per contract call. Typed over every call name, so adding a call to the
 * contract fails the typecheck until it has a sample here, and the browser-host round-trip
 * test and the malformed-input test cover it automatically.
 */
export const sampleRequests: { [N in CallName]: CallRequest<N> } = {
  'app.info': {},
  'updates.status': {},
  'updates.check': {},
  'updates.restart': {},
  'updates.cancelRestart': {},
  'updates.setEnabled': { enabled: true },
  'updates.declareWork': { key: 'sample', busy: false },
};

/** Calls whose sample may legitimately answer with an AppError in a fresh data folder. */
export const mayFailWithAppError: ReadonlySet<CallName> = new Set<CallName>(['updates.restart']);

import type { CallName, CallRequest } from '../../common/contract';

/**
 * One valid request per contract call. Typed over every call name, so adding a call to the
 * contract fails the typecheck until it has a sample here, and the browser-host round-trip
 * test and the malformed-input test cover it automatically.
 */
export const sampleRequests: { [N in CallName]: CallRequest<N> } = {
  'app.info': {},
  'profiles.list': {},
  'profiles.add': { name: 'Sample custom', kind: 'custom', baseUrl: 'http://127.0.0.1:9/api/integration/invoice' },
  'profiles.update': { id: 'sandbox', name: 'Sandbox' },
  'profiles.remove': { id: 'no-such-profile' },
  'profiles.activate': { id: 'sandbox' },
  'profiles.test': { id: 'sandbox' },
  'profiles.sandbox': {},
  'auth.status': {},
  'auth.signInWithToken': { token: 'sample-token' },
  'auth.signInWithPassword': { appId: 'app', taxCode: '0101243150', userName: 'user', password: 'password' },
  'auth.signOut': {},
  'settings.get': {},
  'settings.update': { language: 'vi' },
  'updates.status': {},
  'updates.check': {},
  'updates.restart': {},
  'updates.cancelRestart': {},
  'updates.setEnabled': { enabled: true },
  'updates.declareWork': { key: 'sample', busy: false },
};

/** Calls whose sample may legitimately answer with an AppError in a fresh data folder. */
export const mayFailWithAppError: ReadonlySet<CallName> = new Set<CallName>(['profiles.remove', 'auth.signInWithPassword', 'updates.restart']);

import { describe, expect, it } from 'vitest';
import { canSignOut } from '../../../common/rules/sign-in';

describe('signing out is offered', () => {
  it('while a token is held, even an expired or paused one', () => {
    expect(canSignOut({ state: 'signedIn', method: 'token' })).toBe(true);
    expect(canSignOut({ state: 'expired', method: 'credentials' })).toBe(true);
    expect(canSignOut({ state: 'paused', method: 'token' })).toBe(true);
  });

  it('never when signed out, on the self-signing Sandbox, or before the state is known', () => {
    expect(canSignOut({ state: 'signedOut', method: null })).toBe(false);
    expect(canSignOut({ state: 'signedIn', method: 'sandbox' })).toBe(false);
    expect(canSignOut(undefined)).toBe(false);
  });
});

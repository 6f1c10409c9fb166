import type { TFunction } from 'i18next';
import type { AuthStatus } from '../../../common/calls/auth';

/** The sign-in state in words, for the Settings screen and the side bar's banner. */
export function describeAuth(status: AuthStatus, t: TFunction): string {
  switch (status.state) {
    case 'signedIn':
      if (status.method === 'sandbox') return t('settings.auth.signedInSandbox');
      if (status.daysLeft === null) return t('settings.auth.noExpiry');
      return status.expiringSoon ? t('settings.auth.expiringSoon', { count: status.daysLeft }) : t('settings.auth.expiresIn', { count: status.daysLeft });
    case 'expired':
      return t('settings.auth.expired');
    case 'paused':
      return t('settings.auth.paused');
    default:
      return t('settings.auth.signedOut');
  }
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthStatus } from '../../../common/calls/auth';
import { useAppStore } from '../app/store';
import { bridge } from '../bridge';
import { describeAuth } from './SettingsArea';

/**
 * Shown everywhere (sidebar) when the active profile needs a new sign-in: paused by an auth
 * error mid-work, expired, or expiring within two days. Leads to Settings; never shows a token.
 */
export function AuthBanner() {
  const { t } = useTranslation();
  const setArea = useAppStore((s) => s.setArea);
  const [status, setStatus] = useState<AuthStatus | undefined>();

  useEffect(() => {
    const load = () => bridge.call('auth.status', {}).then(setStatus, () => {});
    load();
    const offAuth = bridge.on('auth.changed', () => void load());
    const offProfiles = bridge.on('profiles.changed', () => void load());
    return () => {
      offAuth();
      offProfiles();
    };
  }, []);

  if (!status || (status.state === 'signedIn' && !status.expiringSoon)) return null;
  return (
    <section className="auth-banner" aria-label={t('settings.auth.banner')} data-testid="auth-banner" data-state={status.state}>
      <p>{describeAuth(status, t)}</p>
      <button type="button" onClick={() => setArea('settings')}>
        {t('settings.auth.goSignIn')}
      </button>
    </section>
  );
}

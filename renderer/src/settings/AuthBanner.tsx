import { useTranslation } from 'react-i18next';
import { useAppStore } from '../app/store';
import { useLive } from '../app/useLive';
import { describeAuth } from './auth-text';

/**
 * Shown everywhere (sidebar) when the active profile needs a new sign-in: paused by an auth
 * error mid-work, expired, or expiring within two days. Leads to Settings; never shows a token.
 */
export function AuthBanner() {
  const { t } = useTranslation();
  const setArea = useAppStore((s) => s.setArea);
  const status = useLive('auth.status', {}, { 'auth.changed': 'reload', 'profiles.changed': 'reload' }).data;

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

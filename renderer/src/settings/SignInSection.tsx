import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthStatus } from '../../../common/calls/auth';
import type { ProfileView } from '../../../common/calls/profiles';
import { useErrorText } from '../app/error-text';
import { Notice, type NoticeMessage } from '../app/Notice';
import { useEdits, useUnsaved } from '../app/store';
import { bridge } from '../bridge';
import { canSignOut } from '../../../common/rules/sign-in';
import { describeAuth } from './auth-text';
import { SaveRow } from './SaveRow';

/** Sign-in to the active profile: with a token, or with the app ID, tax code, user and password. */
export function SignInSection({ profile, status, onStatus }: { profile: ProfileView; status: AuthStatus | undefined; onStatus: (s: AuthStatus) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [token, setToken] = useState('');
  const [appId, setAppId] = useState(status?.appId ?? '');
  const [taxCode, setTaxCode] = useState(status?.taxCode ?? '');
  const [userName, setUserName] = useState(status?.userName ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  // A token or an account being typed are edits not saved; only that is declared, never what was typed.
  useUnsaved('settings.signIn.token', token !== '');
  const account = useEdits('settings.signIn.account');
  const ids = {
    heading: useId(),
    token: useId(),
    app: useId(),
    tax: useId(),
    user: useId(),
    pw: useId(),
    remember: useId(),
    tokenForm: useId(),
    pwForm: useId(),
  };

  useEffect(() => {
    if (status?.appId) setAppId((v) => v || status.appId || '');
    if (status?.taxCode) setTaxCode((v) => v || status.taxCode || '');
    if (status?.userName) setUserName((v) => v || status.userName || '');
  }, [status?.appId, status?.taxCode, status?.userName]);

  // Success clears only what was sent: a token sign-in leaves the account being typed, signing out leaves both.
  const act = async (fn: () => Promise<AuthStatus>, ok: string, sent?: () => void) => {
    setBusy(true);
    setMessage(null);
    try {
      onStatus(await fn());
      setMessage({ kind: 'ok', text: ok });
      sent?.();
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={ids.heading} className="settings-section">
      <h2 id={ids.heading}>{t('settings.auth.title')}</h2>
      <p>{t('settings.auth.forProfile', { name: profile.name })}</p>
      {status && (
        <div role="status" aria-label={t('settings.auth.stateLabel')} className={`auth-state auth-${status.state}`} data-testid="auth-state">
          <p>{describeAuth(status, t)}</p>
          <p className="hint">{status.storage === 'memory' ? t('settings.auth.memory') : t('settings.auth.keychain')}</p>
        </div>
      )}
      <form
        aria-labelledby={ids.tokenForm}
        onSubmit={(e) => (
          e.preventDefault(),
          void act(
            () => bridge.call('auth.signInWithToken', { token }),
            t('settings.auth.done'),
            () => setToken(''),
          )
        )}
      >
        <h3 id={ids.tokenForm}>{t('settings.auth.tokenTitle')}</h3>
        <label htmlFor={ids.token}>{t('settings.auth.token')}</label>
        <input id={ids.token} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
        <SaveRow label={t('settings.auth.signInToken')} notice={null} unsaved={token !== ''} disabled={busy || !token.trim()} />
      </form>
      <form
        aria-labelledby={ids.pwForm}
        onSubmit={(e) => (
          e.preventDefault(),
          void act(
            () => bridge.call('auth.signInWithPassword', { appId, taxCode, userName, password, rememberPassword: remember }),
            t('settings.auth.done'),
            () => {
              setPassword('');
              account.clear();
            },
          )
        )}
      >
        <h3 id={ids.pwForm}>{t('settings.auth.passwordTitle')}</h3>
        <label htmlFor={ids.app}>{t('settings.auth.appId')}</label>
        <input id={ids.app} value={appId} onChange={(e) => account.edit(setAppId)(e.target.value)} autoComplete="off" />
        <label htmlFor={ids.tax}>{t('settings.auth.taxCode')}</label>
        <input id={ids.tax} value={taxCode} onChange={(e) => account.edit(setTaxCode)(e.target.value)} inputMode="numeric" autoComplete="off" />
        <label htmlFor={ids.user}>{t('settings.auth.userName')}</label>
        <input id={ids.user} value={userName} onChange={(e) => account.edit(setUserName)(e.target.value)} autoComplete="username" />
        <label htmlFor={ids.pw}>{t('settings.auth.password')}</label>
        <input id={ids.pw} type="password" value={password} onChange={(e) => account.edit(setPassword)(e.target.value)} autoComplete="current-password" />
        <label className="check" htmlFor={ids.remember}>
          <input id={ids.remember} type="checkbox" checked={remember} onChange={(e) => account.edit(setRemember)(e.target.checked)} />
          {t('settings.auth.remember')}
        </label>
        <SaveRow
          label={t('settings.auth.signIn')}
          notice={null}
          unsaved={account.edited}
          disabled={busy || !appId.trim() || !taxCode.trim() || !userName.trim() || !password}
        />
      </form>
      {canSignOut(status) && (
        <div className="form-actions">
          <button type="button" disabled={busy} onClick={() => void act(() => bridge.call('auth.signOut', {}), t('settings.auth.signedOutDone'))}>
            {t('settings.auth.signOut')}
          </button>
        </div>
      )}
      {busy && <p role="status">{t('settings.auth.working')}</p>}
      <Notice notice={message} />
    </section>
  );
}

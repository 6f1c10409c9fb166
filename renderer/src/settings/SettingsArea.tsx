import type { TFunction } from 'i18next';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthStatus } from '../../../common/calls/auth';
import type { ProfileView } from '../../../common/calls/profiles';
import type { Settings } from '../../../common/calls/settings';
import type { CallResponse } from '../../../common/contract';
import { CallError } from '../../../common/ipc/bridge';
import { useAppStore } from '../app/store';
import { bridge } from '../bridge';
import { setLanguage } from '../i18n';
import './settings.css';
import { MaintenanceSection } from './MaintenanceSection';
import { useErrorText } from '../app/error-text';

type TestResult = CallResponse<'profiles.test'>;


async function refreshAppInfo(): Promise<void> {
  try {
    useAppStore.getState().setInfo(await bridge.call('app.info', {}));
  } catch {
    // the sidebar keeps its last state
  }
}

export function SettingsArea() {
  const [profiles, setProfiles] = useState<ProfileView[]>([]);
  const [auth, setAuth] = useState<AuthStatus | undefined>();
  const reloadProfiles = useCallback(async () => {
    const list = await bridge.call('profiles.list', {});
    setProfiles(list.profiles);
  }, []);
  const reloadAuth = useCallback(async () => setAuth(await bridge.call('auth.status', {})), []);

  useEffect(() => {
    void reloadProfiles();
    void reloadAuth();
    const offProfiles = bridge.on('profiles.changed', (list) => {
      setProfiles(list.profiles);
      void reloadAuth();
      void refreshAppInfo();
    });
    const offAuth = bridge.on('auth.changed', (status) => {
      setAuth((current) => (current === undefined || current.profileId === status.profileId ? status : current));
    });
    return () => {
      offProfiles();
      offAuth();
    };
  }, [reloadProfiles, reloadAuth]);

  const active = profiles.find((p) => p.active);
  return (
    <div className="settings">
      <ProfilesSection profiles={profiles} onChanged={reloadProfiles} />
      {active && <SignInSection profile={active} status={auth} onStatus={setAuth} />}
      <PreferencesSection />
      <MaintenanceSection />
    </div>
  );
}

// ---------------------------------------------------------------- profiles

function ProfilesSection({ profiles, onChanged }: { profiles: ProfileView[]; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [editing, setEditing] = useState<ProfileView | undefined>();
  const [tests, setTests] = useState<Record<string, TestResult | 'running' | undefined>>({});
  const [sandboxRunning, setSandboxRunning] = useState<boolean | undefined>();
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const headingId = useId();

  useEffect(() => {
    bridge.call('profiles.sandbox', {}).then((s) => setSandboxRunning(s.running), () => {});
  }, []);

  const run = async (fn: () => Promise<unknown>) => {
    setMessage(undefined);
    try {
      await fn();
      await onChanged();
      await refreshAppInfo();
    } catch (error) {
      setMessage({ text: errorText(error), error: true });
    }
  };

  const test = async (profile: ProfileView) => {
    setTests((s) => ({ ...s, [profile.id]: 'running' }));
    try {
      const result = await bridge.call('profiles.test', { id: profile.id });
      setTests((s) => ({ ...s, [profile.id]: result }));
    } catch (error) {
      const payload = error instanceof CallError ? error.payload : { code: 'internal', message: String(error), messageVi: String(error) };
      setTests((s) => ({ ...s, [profile.id]: { ok: false, reachable: false, templates: [], error: payload } }));
    }
  };

  const setSandbox = async (running: boolean) => {
    setMessage(undefined);
    try {
      const state = await bridge.call('profiles.sandbox', { running });
      setSandboxRunning(state.running);
    } catch (error) {
      setMessage({ text: errorText(error), error: true });
    }
  };

  return (
    <section aria-labelledby={headingId} className="settings-section">
      <h2 id={headingId}>{t('settings.profiles.title')}</h2>
      <ul className="profile-list" aria-label={t('settings.profiles.listLabel')}>
        {profiles.map((p) => (
          <li key={p.id} className={p.kind === 'sandbox' ? 'profile profile-sandbox' : 'profile'} data-testid={`profile-${p.kind}`}>
            <div className="profile-head">
              <strong>{p.name}</strong> <span className="profile-kind">{t(`settings.profiles.kind_${p.kind}`)}</span>
              {p.active && <span className="profile-active">{t('settings.profiles.active')}</span>}
            </div>
            {p.kind === 'sandbox' ? (
              <p className="profile-sandbox-note">{t('settings.profiles.sandboxNote')}</p>
            ) : (
              <p className="profile-url">{p.baseUrl}</p>
            )}
            <div className="profile-actions">
              {!p.active && (
                <button type="button" onClick={() => void run(() => bridge.call('profiles.activate', { id: p.id }))}>
                  {t('settings.profiles.use', { name: p.name })}
                </button>
              )}
              {!p.builtin && (
                <button type="button" onClick={() => setEditing(p)}>
                  {t('settings.profiles.edit', { name: p.name })}
                </button>
              )}
              <button type="button" onClick={() => void test(p)} disabled={tests[p.id] === 'running'}>
                {t('settings.profiles.test', { name: p.name })}
              </button>
              {!p.builtin && (
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm(t('settings.profiles.confirmRemove', { name: p.name }))) void run(() => bridge.call('profiles.remove', { id: p.id }));
                  }}
                >
                  {t('settings.profiles.remove', { name: p.name })}
                </button>
              )}
              {p.kind === 'sandbox' && sandboxRunning !== undefined && (
                <button type="button" onClick={() => void setSandbox(!sandboxRunning)}>
                  {sandboxRunning ? t('settings.profiles.stopSandbox') : t('settings.profiles.startSandbox')}
                </button>
              )}
            </div>
            {p.kind === 'sandbox' && sandboxRunning === false && <p role="status">{t('settings.profiles.sandboxStopped')}</p>}
            <TestOutcome result={tests[p.id]} />
          </li>
        ))}
      </ul>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'form-error' : 'form-ok'}>
          {message.text}
        </p>
      )}
      <ProfileForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(undefined)} onChanged={onChanged} />
    </section>
  );
}

function TestOutcome({ result }: { result: TestResult | 'running' | undefined }) {
  const { t, i18n } = useTranslation();
  if (result === undefined) return null;
  if (result === 'running') return <p role="status">{t('settings.profiles.testing')}</p>;
  if (!result.ok) {
    const message = result.error ? (i18n.language === 'en' ? result.error.message : result.error.messageVi) : '';
    return (
      <p role="alert" className="form-error">
        {t('settings.profiles.testFail', { message })}
      </p>
    );
  }
  return (
    <div role="status" className="form-ok">
      <p>{t('settings.profiles.testOk', { count: result.templates.length })}</p>
      <ul aria-label={t('settings.profiles.templatesLabel')} className="template-list">
        {result.templates.map((tpl, i) => (
          <li key={`${tpl.series}-${i}`}>
            <code>{tpl.series}</code> {tpl.name}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProfileForm({ editing, onDone, onChanged }: { editing: ProfileView | undefined; onDone: () => void; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<'test' | 'production' | 'custom'>(editing && editing.kind !== 'sandbox' ? editing.kind : 'custom');
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? '');
  const [tokenUrl, setTokenUrl] = useState(editing?.tokenUrl ?? '');
  const [error, setError] = useState<{ text: string; field?: string } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const ids = { name: useId(), kind: useId(), base: useId(), token: useId(), error: useId(), heading: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    try {
      if (editing) {
        const saved = await bridge.call('profiles.update', { id: editing.id, name, baseUrl: baseUrl.trim() || null, tokenUrl: tokenUrl.trim() || null });
        setDone(t('settings.profiles.saved', { name: saved.name }));
        onDone();
      } else {
        const added = await bridge.call('profiles.add', { name, kind, baseUrl: baseUrl.trim() || null, tokenUrl: tokenUrl.trim() || null });
        setDone(t('settings.profiles.added', { name: added.name }));
        setName('');
        setBaseUrl('');
        setTokenUrl('');
      }
      await onChanged();
    } catch (e) {
      const field = e instanceof CallError ? e.payload.issues?.[0]?.path : undefined;
      setError({ text: errorText(e), ...(field ? { field } : {}) });
    }
  };

  const invalid = (field: string) => (error && (error.field === field || (!error.field && field === 'baseUrl')) ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {});
  return (
    <form className="profile-form" onSubmit={(e) => void submit(e)} aria-labelledby={ids.heading} noValidate>
      <h3 id={ids.heading}>{editing ? t('settings.profiles.editTitle', { name: editing.name }) : t('settings.profiles.addTitle')}</h3>
      <label htmlFor={ids.name}>{t('settings.profiles.name')}</label>
      <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} required {...invalid('name')} />
      {!editing && (
        <>
          <label htmlFor={ids.kind}>{t('settings.profiles.kind')}</label>
          <select id={ids.kind} value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            <option value="custom">{t('settings.profiles.kind_custom')}</option>
            <option value="test">{t('settings.profiles.kind_test')}</option>
            <option value="production">{t('settings.profiles.kind_production')}</option>
          </select>
        </>
      )}
      <label htmlFor={ids.base}>{t('settings.profiles.baseUrl')}</label>
      <input id={ids.base} type="url" inputMode="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://" {...invalid('baseUrl')} />
      <label htmlFor={ids.token}>{t('settings.profiles.tokenUrl')}</label>
      <input id={ids.token} type="url" inputMode="url" value={tokenUrl} onChange={(e) => setTokenUrl(e.target.value)} placeholder="https://" {...invalid('tokenUrl')} />
      {kind !== 'custom' && !editing && <p className="hint">{t('settings.profiles.presetHint')}</p>}
      {error && (
        <p id={ids.error} role="alert" className="form-error">
          {error.text}
        </p>
      )}
      {done && (
        <p role="status" className="form-ok">
          {done}
        </p>
      )}
      <div className="form-actions">
        <button type="submit">{editing ? t('settings.profiles.save') : t('settings.profiles.add')}</button>
        {editing && (
          <button type="button" onClick={onDone}>
            {t('settings.profiles.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

// ---------------------------------------------------------------- sign-in

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

function SignInSection({ profile, status, onStatus }: { profile: ProfileView; status: AuthStatus | undefined; onStatus: (s: AuthStatus) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [token, setToken] = useState('');
  const [appId, setAppId] = useState(status?.appId ?? '');
  const [taxCode, setTaxCode] = useState(status?.taxCode ?? '');
  const [userName, setUserName] = useState(status?.userName ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const ids = { heading: useId(), token: useId(), app: useId(), tax: useId(), user: useId(), pw: useId(), remember: useId(), tokenForm: useId(), pwForm: useId() };

  useEffect(() => {
    if (status?.appId) setAppId((v) => v || status.appId || '');
    if (status?.taxCode) setTaxCode((v) => v || status.taxCode || '');
    if (status?.userName) setUserName((v) => v || status.userName || '');
  }, [status?.appId, status?.taxCode, status?.userName]);

  const act = async (fn: () => Promise<AuthStatus>, ok: string) => {
    setBusy(true);
    setMessage(undefined);
    try {
      onStatus(await fn());
      setMessage({ text: ok, error: false });
      setToken('');
      setPassword('');
    } catch (error) {
      setMessage({ text: errorText(error), error: true });
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
      <form aria-labelledby={ids.tokenForm} onSubmit={(e) => (e.preventDefault(), void act(() => bridge.call('auth.signInWithToken', { token }), t('settings.auth.done')))}>
        <h3 id={ids.tokenForm}>{t('settings.auth.tokenTitle')}</h3>
        <label htmlFor={ids.token}>{t('settings.auth.token')}</label>
        <input id={ids.token} type="password" autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
        <div className="form-actions">
          <button type="submit" disabled={busy || !token.trim()}>
            {t('settings.auth.signInToken')}
          </button>
        </div>
      </form>
      <form
        aria-labelledby={ids.pwForm}
        onSubmit={(e) => (
          e.preventDefault(),
          void act(() => bridge.call('auth.signInWithPassword', { appId, taxCode, userName, password, rememberPassword: remember }), t('settings.auth.done'))
        )}
      >
        <h3 id={ids.pwForm}>{t('settings.auth.passwordTitle')}</h3>
        <label htmlFor={ids.app}>{t('settings.auth.appId')}</label>
        <input id={ids.app} value={appId} onChange={(e) => setAppId(e.target.value)} autoComplete="off" />
        <label htmlFor={ids.tax}>{t('settings.auth.taxCode')}</label>
        <input id={ids.tax} value={taxCode} onChange={(e) => setTaxCode(e.target.value)} inputMode="numeric" autoComplete="off" />
        <label htmlFor={ids.user}>{t('settings.auth.userName')}</label>
        <input id={ids.user} value={userName} onChange={(e) => setUserName(e.target.value)} autoComplete="username" />
        <label htmlFor={ids.pw}>{t('settings.auth.password')}</label>
        <input id={ids.pw} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        <label className="check" htmlFor={ids.remember}>
          <input id={ids.remember} type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          {t('settings.auth.remember')}
        </label>
        <div className="form-actions">
          <button type="submit" disabled={busy || !appId.trim() || !taxCode.trim() || !userName.trim() || !password}>
            {t('settings.auth.signIn')}
          </button>
        </div>
      </form>
      <div className="form-actions">
        <button type="button" disabled={busy} onClick={() => void act(() => bridge.call('auth.signOut', {}), t('settings.auth.signedOutDone'))}>
          {t('settings.auth.signOut')}
        </button>
      </div>
      {busy && <p role="status">{t('settings.auth.working')}</p>}
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'form-error' : 'form-ok'}>
          {message.text}
        </p>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- preferences

function PreferencesSection() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [settings, setSettings] = useState<Settings | undefined>();
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const ids = { heading: useId(), lang: useId(), zero: useId(), thousand: useId(), tu: useId(), even: useId(), folder: useId(), bd: useId(), be: useId(), words: useId() };

  useEffect(() => {
    bridge.call('settings.get', {}).then(setSettings, () => {});
    return bridge.on('settings.changed', setSettings);
  }, []);
  if (!settings) return null;

  const patch = (p: Partial<Settings>) => setSettings({ ...settings, ...p });
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    try {
      const saved = await bridge.call('settings.update', {
        language: settings.language,
        amountInWords: settings.amountInWords,
        downloadFolder: settings.downloadFolder?.trim() ? settings.downloadFolder.trim() : null,
        batchSizes: settings.batchSizes,
      });
      setSettings(saved);
      await setLanguage(saved.language);
      setMessage({ text: t('settings.prefs.saved'), error: false });
    } catch (error) {
      setMessage({ text: errorText(error), error: true });
    }
  };

  const words = settings.amountInWords;
  return (
    <section aria-labelledby={ids.heading} className="settings-section">
      <h2 id={ids.heading}>{t('settings.prefs.title')}</h2>
      <form onSubmit={(e) => void save(e)} aria-labelledby={ids.heading}>
        <label htmlFor={ids.lang}>{t('settings.prefs.language')}</label>
        <select id={ids.lang} value={settings.language} onChange={(e) => patch({ language: e.target.value as Settings['language'] })}>
          <option value="vi">Tiếng Việt</option>
          <option value="en">English</option>
        </select>
        <fieldset>
          <legend id={ids.words}>{t('settings.prefs.words')}</legend>
          <label htmlFor={ids.zero}>{t('settings.prefs.zeroTens')}</label>
          <select id={ids.zero} value={words.zeroTens} onChange={(e) => patch({ amountInWords: { ...words, zeroTens: e.target.value as typeof words.zeroTens } })}>
            <option value="linh">linh (một trăm linh năm)</option>
            <option value="lẻ">lẻ (một trăm lẻ năm)</option>
          </select>
          <label htmlFor={ids.thousand}>{t('settings.prefs.thousand')}</label>
          <select id={ids.thousand} value={words.thousand} onChange={(e) => patch({ amountInWords: { ...words, thousand: e.target.value as typeof words.thousand } })}>
            <option value="nghìn">nghìn</option>
            <option value="ngàn">ngàn</option>
          </select>
          <label className="check" htmlFor={ids.tu}>
            <input id={ids.tu} type="checkbox" checked={words.useTu} onChange={(e) => patch({ amountInWords: { ...words, useTu: e.target.checked } })} />
            {t('settings.prefs.useTu')}
          </label>
          <label className="check" htmlFor={ids.even}>
            <input id={ids.even} type="checkbox" checked={words.even} onChange={(e) => patch({ amountInWords: { ...words, even: e.target.checked } })} />
            {t('settings.prefs.even')}
          </label>
        </fieldset>
        <label htmlFor={ids.folder}>{t('settings.prefs.downloadFolder')}</label>
        <input id={ids.folder} value={settings.downloadFolder ?? ''} onChange={(e) => patch({ downloadFolder: e.target.value })} />
        <p className="hint">{t('settings.prefs.downloadFolderHint')}</p>
        <label htmlFor={ids.bd}>{t('settings.prefs.batchDownload')}</label>
        <input
          id={ids.bd}
          type="number"
          min={1}
          max={50}
          value={settings.batchSizes.download}
          onChange={(e) => patch({ batchSizes: { ...settings.batchSizes, download: Number(e.target.value) } })}
        />
        <label htmlFor={ids.be}>{t('settings.prefs.batchEmail')}</label>
        <input
          id={ids.be}
          type="number"
          min={1}
          max={100}
          value={settings.batchSizes.email}
          onChange={(e) => patch({ batchSizes: { ...settings.batchSizes, email: Number(e.target.value) } })}
        />
        <div className="form-actions">
          <button type="submit">{t('settings.prefs.save')}</button>
        </div>
        {message && (
          <p role={message.error ? 'alert' : 'status'} className={message.error ? 'form-error' : 'form-ok'}>
            {message.text}
          </p>
        )}
      </form>
    </section>
  );
}

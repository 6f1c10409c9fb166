import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../common/calls/profiles';
import type { CallResponse } from '../../../common/contract';
import { CallError } from '../../../common/ipc/bridge';
import { useErrorText } from '../app/error-text';
import { Notice, type NoticeMessage } from '../app/Notice';
import { useAppStore } from '../app/store';
import { bridge } from '../bridge';
import { useSandboxSamples } from '../app/SampleInvoices';
import { PROFILE_FORM, ProfileForm } from './ProfileForm';
import { refreshAppInfo } from './app-info';

type TestResult = CallResponse<'profiles.test'>;

/** The connection profiles: use, edit, test, remove; the Sandbox can be started and stopped. */
export function ProfilesSection({ profiles, onChanged }: { profiles: ProfileView[]; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [editing, setEditing] = useState<ProfileView | undefined>();
  // Another profile asked for while the form below holds typing not saved: the typing is not thrown
  // away until the user says so.
  const typing = useAppStore((s) => s.unsaved.includes(PROFILE_FORM));
  const [switching, setSwitching] = useState<ProfileView | undefined>();
  const edit = (p: ProfileView) => {
    if (!typing) setEditing(p);
    else if (p.id === editing?.id) focusForm();
    else setSwitching(p);
  };
  useEffect(() => {
    if (!typing) setSwitching(undefined);
  }, [typing]);
  const [tests, setTests] = useState<Record<string, TestResult | 'running' | undefined>>({});
  const [sandboxRunning, setSandboxRunning] = useState<boolean | undefined>();
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const headingId = useId();

  useEffect(() => {
    bridge.call('profiles.sandbox', {}).then(
      (s) => setSandboxRunning(s.running),
      () => {},
    );
  }, []);

  const run = async (fn: () => Promise<unknown>) => {
    setMessage(null);
    try {
      await fn();
      await onChanged();
      await refreshAppInfo();
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) });
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
    setMessage(null);
    try {
      const state = await bridge.call('profiles.sandbox', { running });
      setSandboxRunning(state.running);
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) });
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
            {p.kind === 'sandbox' ? <p className="profile-sandbox-note">{t('settings.profiles.sandboxNote')}</p> : <p className="profile-url">{p.baseUrl}</p>}
            <div className="profile-actions">
              {!p.active && (
                <button type="button" onClick={() => void run(() => bridge.call('profiles.activate', { id: p.id }))}>
                  {t('settings.profiles.use', { name: p.name })}
                </button>
              )}
              {!p.builtin && (
                <button type="button" onClick={() => edit(p)}>
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
            {p.kind === 'sandbox' && p.active && sandboxRunning && <SandboxDetails />}
            <TestOutcome result={tests[p.id]} />
          </li>
        ))}
      </ul>
      <Notice notice={message} />
      {switching && typing && (
        <Notice notice={{ kind: 'warning', text: t('settings.profiles.typingNotSaved') }}>
          <button
            type="button"
            onClick={() => {
              setEditing(switching);
              setSwitching(undefined);
            }}
          >
            {t('settings.profiles.discardAndEdit', { name: switching.name })}
          </button>
          <button
            type="button"
            onClick={() => {
              setSwitching(undefined);
              // Back to the typing (this button goes with the notice).
              focusForm();
            }}
          >
            {t('settings.profiles.keepTyping')}
          </button>
        </Notice>
      )}
      <ProfileForm
        key={editing?.id ?? 'new'}
        editing={editing}
        onDone={(text) => {
          setEditing(undefined);
          if (text) setMessage(text);
        }}
        onChanged={onChanged}
      />
    </section>
  );
}

function focusForm() {
  document.querySelector<HTMLElement>('.profile-form input')?.focus();
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

/** Where the Sandbox answers and the sample sign-in it accepts (for a Custom profile or the command line). */
function SandboxDetails() {
  const { t } = useTranslation();
  const samples = useSandboxSamples();
  if (!samples) return null;
  const { login } = samples;
  const rows: Array<[string, string]> = [
    [t('settings.profiles.sandboxAddress'), samples.baseUrl],
    [t('settings.auth.appId'), login.appId],
    [t('settings.auth.taxCode'), login.taxCode],
    [t('settings.auth.userName'), login.userName],
    [t('settings.auth.password'), login.password],
  ];
  return (
    <div className="sandbox-details" data-testid="sandbox-details">
      <p className="hint">{t('settings.profiles.sandboxLogin')}</p>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

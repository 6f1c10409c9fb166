import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../common/calls/profiles';
import { CallError } from '../../../common/ipc/bridge';
import { originChanged } from '../../../common/rules/network';
import { useErrorText } from '../app/error-text';
import { Notice, type NoticeMessage } from '../app/Notice';
import { useEdits } from '../app/store';
import { bridge } from '../bridge';
import { SaveRow } from './SaveRow';

/** The profile form's key among the forms with unsaved edits (app store). */
export const PROFILE_FORM = 'settings.profile';

/** Adds a profile, or edits one that is not built in. */
export function ProfileForm({
  editing,
  onDone,
  onChanged,
}: {
  editing: ProfileView | undefined;
  /** The form closes; `result` is what the section shows after it (the form itself is gone). */
  onDone: (result?: NoticeMessage) => void;
  onChanged: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<'test' | 'production' | 'custom'>(editing && editing.kind !== 'sandbox' ? editing.kind : 'custom');
  const [baseUrl, setBaseUrl] = useState(editing?.baseUrl ?? '');
  const [tokenUrl, setTokenUrl] = useState(editing?.tokenUrl ?? '');
  const [error, setError] = useState<{ text: string; field?: string } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const { edited, edit, clear } = useEdits(PROFILE_FORM);
  const ids = { name: useId(), kind: useId(), base: useId(), token: useId(), error: useId(), heading: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    try {
      if (editing) {
        const saved = await bridge.call('profiles.update', { id: editing.id, name, baseUrl: baseUrl.trim() || null, tokenUrl: tokenUrl.trim() || null });
        const text = t(saved.signedOutByOriginChange ? 'settings.profiles.savedSignedOut' : 'settings.profiles.saved', { name: saved.name });
        onDone({ kind: saved.signedOutByOriginChange ? 'warning' : 'ok', text });
      } else {
        const added = await bridge.call('profiles.add', { name, kind, baseUrl: baseUrl.trim() || null, tokenUrl: tokenUrl.trim() || null });
        setDone(t('settings.profiles.added', { name: added.name }));
        setName('');
        setBaseUrl('');
        setTokenUrl('');
        clear();
      }
      await onChanged();
    } catch (e) {
      const field = e instanceof CallError ? e.payload.issues?.[0]?.path : undefined;
      setError({ text: errorText(e), ...(field ? { field } : {}) });
    }
  };

  // A token and a remembered password belong to the server they were given to: say so before saving.
  const moving = editing !== undefined && originChanged(editing, { baseUrl: baseUrl.trim() || null, tokenUrl: tokenUrl.trim() || null });
  const invalid = (field: string) =>
    error && (error.field === field || (!error.field && field === 'baseUrl')) ? { 'aria-invalid': true, 'aria-describedby': ids.error } : {};
  return (
    <form className="profile-form" onSubmit={(e) => void submit(e)} aria-labelledby={ids.heading} noValidate>
      <h3 id={ids.heading}>{editing ? t('settings.profiles.editTitle', { name: editing.name }) : t('settings.profiles.addTitle')}</h3>
      <label htmlFor={ids.name}>{t('settings.profiles.name')}</label>
      <input id={ids.name} value={name} onChange={(e) => edit(setName)(e.target.value)} required {...invalid('name')} />
      {!editing && (
        <>
          <label htmlFor={ids.kind}>{t('settings.profiles.kind')}</label>
          <select id={ids.kind} value={kind} onChange={(e) => edit(setKind)(e.target.value as typeof kind)}>
            <option value="custom">{t('settings.profiles.kind_custom')}</option>
            <option value="test">{t('settings.profiles.kind_test')}</option>
            <option value="production">{t('settings.profiles.kind_production')}</option>
          </select>
        </>
      )}
      <UrlField id={ids.base} label={t('settings.profiles.baseUrl')} value={baseUrl} onChange={edit(setBaseUrl)} invalid={invalid('baseUrl')} />
      <UrlField id={ids.token} label={t('settings.profiles.tokenUrl')} value={tokenUrl} onChange={edit(setTokenUrl)} invalid={invalid('tokenUrl')} />
      {kind !== 'custom' && !editing && <p className="hint">{t('settings.profiles.presetHint')}</p>}
      <Notice notice={moving ? { kind: 'warning', text: t('settings.profiles.originWarning') } : null} />
      <Notice id={ids.error} notice={error ? { kind: 'error', text: error.text } : null} />
      <Notice notice={done ? { kind: 'ok', text: done } : null} />
      <SaveRow label={editing ? t('settings.profiles.save') : t('settings.profiles.add')} notice={null} unsaved={edited}>
        {editing && (
          <button type="button" onClick={() => onDone()}>
            {t('settings.profiles.cancel')}
          </button>
        )}
      </SaveRow>
    </form>
  );
}

function UrlField({ id, label, value, onChange, invalid }: { id: string; label: string; value: string; onChange: (v: string) => void; invalid: object }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="url" inputMode="url" value={value} onChange={(e) => onChange(e.target.value)} placeholder="https://" {...invalid} />
    </>
  );
}

import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuingSettings } from '../../../common/calls/settings';
import { formatDate } from '../../../common/format';
import { SIGN_TYPES } from '../../../common/model/issuing';
import { useErrorText, useLang } from '../app/error-text';
import type { NoticeMessage } from '../app/Notice';
import { RadioFieldset } from '../app/fields';
import { bridge } from '../bridge';
import { SaveRow } from './SaveRow';
import { useSettingsForm } from './useSettingsForm';
import { formFromSettings, settingsFromForm, type Certificate, type IssuingForm } from '../issuing/settings-form';

const EMAIL_CHOICES = ['queue', 'service', 'off'] as const;
const FILE_TYPES = ['Pdf', 'Xml'] as const;

type CertList = { state: 'loading' } | { state: 'ok'; items: Certificate[] } | { state: 'error'; message: string };

/** The shop's certificates from the service (HSM signing), loaded when the section opens and on request. */
function useCertificates(): { list: CertList; refresh(): void } {
  const errorText = useErrorText();
  const [list, setList] = useState<CertList>({ state: 'loading' });
  const refresh = useCallback(() => {
    setList({ state: 'loading' });
    bridge.call('issuing.certificates', {}).then(
      (r) => setList({ state: 'ok', items: r.items }),
      (error: unknown) => setList({ state: 'error', message: errorText(error) }),
    );
  }, [errorText]);
  useEffect(refresh, [refresh]);
  return { list, refresh };
}

/** Settings → Issuing: how this PC signs, the pause per series, downloads and emails after issuing, its series. */
export function IssuingSection() {
  const { t } = useTranslation();
  const lang = useLang();
  const errorText = useErrorText();
  const { stored: settings, form, edited, patch, saved: keepSaved } = useSettingsForm<IssuingForm>('settings.issuing', (s) => formFromSettings(s.issuing));
  const [invalid, setInvalid] = useState<{ gap: boolean; series: string[] }>({ gap: false, series: [] });
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const { list, refresh } = useCertificates();
  const ids = { heading: useId(), cert: useId(), gap: useId(), gapHint: useId(), gapErr: useId(), series: useId(), seriesHint: useId(), seriesErr: useId() };

  if (!settings || !form) return null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const read = settingsFromForm(form);
    if (!read.ok) {
      setInvalid({ gap: read.gap, series: read.invalidSeries });
      setMessage({ kind: 'error', text: t('issuing.settings.fix') });
      document.getElementById(read.gap ? ids.gap : ids.series)?.focus();
      return;
    }
    setInvalid({ gap: false, series: [] });
    try {
      const saved = await bridge.call('settings.update', { issuing: read.settings });
      keepSaved(saved);
      setMessage({ kind: 'ok', text: t('issuing.settings.saved') });
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) });
    }
  };

  const certificates = list.state === 'ok' ? list.items : [];
  const known = certificates.some((c) => c.certificateSN === form.certificateSN);
  const certText = (c: Certificate) =>
    t('issuing.settings.certificateOption', {
      sn: c.certificateSN,
      owner: c.authOrganizeName ?? c.userName ?? c.taxCode ?? '',
      date: c.expirationTime ? formatDate(c.expirationTime, lang) : '—',
    });
  const folderLabel = t('settings.prefs.downloadFolder');
  const toggleType = (type: IssuingSettings['downloadTypes'][number], on: boolean) => {
    const next = on ? [...new Set([...form.downloadTypes, type])] : form.downloadTypes.filter((x) => x !== type);
    if (next.length > 0) patch({ downloadTypes: FILE_TYPES.filter((x) => next.includes(x)) });
  };
  return (
    <section aria-labelledby={ids.heading} className="settings-section" data-testid="settings-issuing">
      <h2 id={ids.heading}>{t('issuing.settings.title')}</h2>
      <form onSubmit={(e) => void save(e)} aria-labelledby={ids.heading} noValidate>
        <RadioFieldset
          legend={t('issuing.settings.signType')}
          name="signType"
          value={form.signType}
          choices={SIGN_TYPES}
          label={(n) => t(`issuing.settings.signTypeOption.${n}`)}
          onChange={(signType) => patch({ signType })}
        >
          <p className="hint">{t('issuing.settings.signTypeHint')}</p>
        </RadioFieldset>

        <label htmlFor={ids.cert}>{t('issuing.settings.certificate')}</label>
        <div className="inline">
          <select id={ids.cert} value={form.certificateSN} onChange={(e) => patch({ certificateSN: e.target.value })}>
            <option value="">{t('issuing.settings.certificateAuto')}</option>
            {form.certificateSN && !known && <option value={form.certificateSN}>{t('issuing.settings.certificateMissing', { sn: form.certificateSN })}</option>}
            {certificates.map((c) => (
              <option key={c.certificateSN} value={c.certificateSN}>
                {certText(c)}
              </option>
            ))}
          </select>
          <button type="button" onClick={refresh} disabled={list.state === 'loading'}>
            {t('issuing.settings.refresh')}
          </button>
        </div>
        <p className="hint" role="status">
          {list.state === 'loading'
            ? t('issuing.settings.loading')
            : list.state === 'error'
              ? t('issuing.settings.certificatesFailed', { message: list.message })
              : t('issuing.settings.certificatesCount', { count: list.items.length })}
        </p>

        <label htmlFor={ids.gap}>{t('issuing.settings.gap')}</label>
        <input
          id={ids.gap}
          className="short"
          inputMode="decimal"
          value={form.gap}
          aria-invalid={invalid.gap || undefined}
          aria-describedby={invalid.gap ? `${ids.gapErr} ${ids.gapHint}` : ids.gapHint}
          onChange={(e) => patch({ gap: e.target.value })}
        />
        {invalid.gap && (
          <p className="form-error" id={ids.gapErr}>
            {t('issuing.settings.gapInvalid')}
          </p>
        )}
        <p className="hint" id={ids.gapHint}>
          {t('issuing.settings.gapHint')}
        </p>

        <fieldset>
          <legend>{t('issuing.settings.download')}</legend>
          <label className="check">
            <input type="checkbox" checked={form.autoDownload} onChange={(e) => patch({ autoDownload: e.target.checked })} />
            {t('issuing.settings.autoDownload')}
          </label>
          <div className="inline" role="group" aria-label={t('issuing.settings.types')}>
            <span>{t('issuing.settings.types')}:</span>
            {FILE_TYPES.map((type) => (
              <label key={type} className="check">
                <input
                  type="checkbox"
                  checked={form.downloadTypes.includes(type)}
                  disabled={!form.autoDownload || (form.downloadTypes.length === 1 && form.downloadTypes[0] === type)}
                  onChange={(e) => toggleType(type, e.target.checked)}
                />
                {type.toUpperCase()}
              </label>
            ))}
          </div>
          <p className="hint">
            {settings.downloadFolder
              ? t('issuing.settings.folder', { label: folderLabel, folder: settings.downloadFolder })
              : t('issuing.settings.noFolder', { label: folderLabel })}
          </p>
        </fieldset>

        <RadioFieldset
          legend={t('issuing.settings.email')}
          name="issueEmail"
          value={form.email}
          choices={EMAIL_CHOICES}
          label={(choice) => t(`issuing.settings.emailOption.${choice}`)}
          onChange={(email) => patch({ email })}
        />

        <label htmlFor={ids.series}>{t('issuing.settings.series')}</label>
        <input
          id={ids.series}
          value={form.series}
          autoCapitalize="characters"
          aria-invalid={invalid.series.length > 0 || undefined}
          aria-describedby={invalid.series.length > 0 ? `${ids.seriesErr} ${ids.seriesHint}` : ids.seriesHint}
          onChange={(e) => patch({ series: e.target.value })}
        />
        {invalid.series.length > 0 && (
          <p className="form-error" id={ids.seriesErr}>
            {t('issuing.settings.seriesInvalid', { list: invalid.series.join(', ') })}
          </p>
        )}
        <p className="hint" id={ids.seriesHint}>
          {t('issuing.settings.seriesHint')}
        </p>

        <SaveRow label={t('issuing.settings.save')} notice={message} unsaved={edited} />
      </form>
    </section>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../common/calls/settings';
import { pick } from '../../../common/model';
import { batchSizeProblem, MAX_DOWNLOAD_BATCH, MAX_EMAIL_BATCH } from '../../../common/rules/network';
import { useErrorText, useLang } from '../app/error-text';
import type { NoticeMessage } from '../app/Notice';
import { bridge } from '../bridge';
import { SaveRow } from './SaveRow';
import { useSettingsForm } from './useSettingsForm';
import { DigitsFieldset } from './DigitsFieldset';
import { setLanguage } from '../i18n';

const BATCHES = [
  { key: 'download', max: MAX_DOWNLOAD_BATCH, label: 'settings.prefs.batchDownload' },
  { key: 'email', max: MAX_EMAIL_BATCH, label: 'settings.prefs.batchEmail' },
] as const;

function BatchInput(props: { id: string; label: string; max: number; value: number; problem: string | null; onChange: (n: number) => void }) {
  const { id, label, max, value, problem, onChange } = props;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={1}
        max={max}
        value={value}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      {problem && (
        <p id={`${id}-problem`} role="alert" className="form-error">
          {problem}
        </p>
      )}
    </>
  );
}

/** Language, amount-in-words style, the download folder and batch sizes. */
export function PreferencesSection() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { form: settings, edited, patch, saved: keepSaved } = useSettingsForm<Settings>('settings.preferences', (s) => s);
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  /** A batch size Save refused, shown under its field. */
  const [batchProblem, setBatchProblem] = useState<{ key: (typeof BATCHES)[number]['key']; text: string } | null>(null);
  const ids = { heading: useId(), lang: useId(), zero: useId(), thousand: useId(), tu: useId(), even: useId(), folder: useId(), words: useId() };
  const batchIds = { download: useId(), email: useId() };
  const lang = useLang();

  if (!settings) return null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setBatchProblem(null);
    // Checked here in the screen's language (the browser's own bubble speaks its own), the field focused.
    for (const { key } of BATCHES) {
      const problem = batchSizeProblem(key, settings.batchSizes[key]);
      if (problem) {
        setBatchProblem({ key, text: pick(problem, lang) });
        document.getElementById(batchIds[key])?.focus();
        return;
      }
    }
    try {
      const saved = await bridge.call('settings.update', {
        language: settings.language,
        amountInWords: settings.amountInWords,
        downloadFolder: settings.downloadFolder?.trim() ? settings.downloadFolder.trim() : null,
        batchSizes: settings.batchSizes,
        decimalDigits: settings.decimalDigits,
      });
      keepSaved(saved);
      await setLanguage(saved.language);
      setMessage({ kind: 'ok', text: t('settings.prefs.saved') });
    } catch (error) {
      setMessage({ kind: 'error', text: errorText(error) });
    }
  };

  const words = settings.amountInWords;
  return (
    <section aria-labelledby={ids.heading} className="settings-section">
      <h2 id={ids.heading}>{t('settings.prefs.title')}</h2>
      <form noValidate onSubmit={(e) => void save(e)} aria-labelledby={ids.heading}>
        <label htmlFor={ids.lang}>{t('settings.prefs.language')}</label>
        <select id={ids.lang} value={settings.language} onChange={(e) => patch({ language: e.target.value as Settings['language'] })}>
          <option value="vi">Tiếng Việt</option>
          <option value="en">English</option>
        </select>
        <fieldset>
          <legend id={ids.words}>{t('settings.prefs.words')}</legend>
          <label htmlFor={ids.zero}>{t('settings.prefs.zeroTens')}</label>
          <select
            id={ids.zero}
            value={words.zeroTens}
            onChange={(e) => patch({ amountInWords: { ...words, zeroTens: e.target.value as typeof words.zeroTens } })}
          >
            <option value="linh">linh (một trăm linh năm)</option>
            <option value="lẻ">lẻ (một trăm lẻ năm)</option>
          </select>
          <label htmlFor={ids.thousand}>{t('settings.prefs.thousand')}</label>
          <select
            id={ids.thousand}
            value={words.thousand}
            onChange={(e) => patch({ amountInWords: { ...words, thousand: e.target.value as typeof words.thousand } })}
          >
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
        {BATCHES.map(({ key, max, label }) => (
          <BatchInput
            key={key}
            id={batchIds[key]}
            problem={batchProblem?.key === key ? batchProblem.text : null}
            label={t(label)}
            max={max}
            value={settings.batchSizes[key]}
            onChange={(n) => {
              patch({ batchSizes: { ...settings.batchSizes, [key]: n } });
              if (batchProblem?.key === key) setBatchProblem(null);
            }}
          />
        ))}
        <DigitsFieldset value={settings.decimalDigits} onChange={(decimalDigits) => patch({ decimalDigits })} />
        <SaveRow label={t('settings.prefs.save')} notice={message} unsaved={edited} />
      </form>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailKind, EmailReject } from '../../../common/calls/emails';
import { errorText, useLang } from '../app/error-text';
import type { SandboxSampleGroup } from '../../../common/calls/sandbox';
import { Dialog } from '../app/Dialog';
import { SampleInvoices, useSandboxMode } from '../app/SampleInvoices';
import { FilePicker, SelectField } from '../app/fields';
import { Notice } from '../app/Notice';
import { bridge } from '../bridge';

const KINDS: readonly EmailKind[] = ['withCode', 'withoutCode', 'cashRegister'];
/** The queue's name for each kind of sample invoice (the cash-register kind is `calc` elsewhere). */
const EMAIL_KIND_OF_SAMPLE: Record<SandboxSampleGroup['kind'], EmailKind> = { withCode: 'withCode', withoutCode: 'withoutCode', calc: 'cashRegister' };
const FIELDS = ['transactionId', 'receiverName', 'receiverEmail', 'ccEmail', 'bccEmail', 'replyEmail'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY_FORM: Record<Field, string> = { transactionId: '', receiverName: '', receiverEmail: '', ccEmail: '', bccEmail: '', replyEmail: '' };

export function KindSelect({ value, onChange, label }: { value: EmailKind; onChange: (k: EmailKind) => void; label: string }) {
  const { t } = useTranslation();
  return <SelectField label={label} value={value} onChange={onChange} options={KINDS.map((k) => ({ value: k, label: t(`emails.kinds.${k}`) }))} />;
}

/** Recipient fields, as the add form and the edit dialog both show them. */
export function RecipientFields<F extends Field>({
  fields,
  form,
  onChange,
}: {
  fields: readonly F[];
  form: Record<F, string>;
  onChange: (field: F, value: string) => void;
}) {
  const { t } = useTranslation();
  return fields.map((f) => (
    <label className="field" key={f}>
      <span>{t(`emails.add.${f as Field}`)}</span>
      <input
        value={form[f]}
        required={f === 'transactionId' || f === 'receiverEmail'}
        type="text"
        inputMode={f.endsWith('Email') ? 'email' : undefined}
        onChange={(e) => onChange(f, e.target.value)}
      />
    </label>
  ));
}

/** The add-by-hand form, in a dialog opened from the toolbar. */
export function AddDialog({ onDone, onClose }: { onDone: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const sandbox = useSandboxMode();
  const lang = useLang();
  const [form, setForm] = useState(EMPTY_FORM);
  const [kind, setKind] = useState<EmailKind>('withCode');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await bridge.call('emails.add', { entries: [{ ...form, kind }] });
      const bad = r.rejected[0];
      if (bad) setError(lang === 'vi' ? bad.reasonVi : bad.reason);
      else {
        setForm(EMPTY_FORM);
        onDone(t('emails.add.added'));
      }
    } catch (err) {
      setError(errorText(err, lang));
    }
  };
  return (
    <Dialog title={t('emails.add.title')} closeLabel={t('app.close')} onClose={onClose} className="emails-dialog">
      <form onSubmit={(e) => void submit(e)} aria-label={t('emails.add.title')}>
        {sandbox && (
          <SampleInvoices
            onPick={(g) => {
              setForm({ ...form, transactionId: g.ids[0] ?? '' });
              setKind(EMAIL_KIND_OF_SAMPLE[g.kind]);
            }}
          />
        )}
        <RecipientFields fields={FIELDS} form={form} onChange={(f, v) => setForm({ ...form, [f]: v })} />
        <KindSelect value={kind} onChange={setKind} label={t('emails.add.kind')} />
        <Notice notice={error ? { kind: 'error', text: error } : null} />
        <div className="dialog-buttons">
          <button type="submit" className="primary">
            {t('emails.add.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The CSV import, in a dialog opened from the toolbar; the result and any bad rows stay in view there. */
export function ImportDialog({ onDone, onClose }: { onDone: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [kind, setKind] = useState<EmailKind>('withCode');
  const [result, setResult] = useState<{ text: string; bad: EmailReject[]; error: boolean } | null>(null);
  const onFile = async (file: File) => {
    try {
      const text = new TextDecoder('utf-8').decode(await file.arrayBuffer());
      const r = await bridge.call('emails.importCsv', { text, kind });
      const summary = t('emails.import.result', { added: r.added.length, bad: r.rejected.length });
      setResult({ text: summary, bad: r.rejected, error: false });
      onDone();
    } catch (err) {
      setResult({ text: errorText(err, lang), bad: [], error: true });
    }
  };
  return (
    <Dialog title={t('emails.import.title')} closeLabel={t('app.close')} onClose={onClose} className="emails-dialog">
      <div className="emails-form">
        <p className="hint">{t('emails.import.hint')}</p>
        <KindSelect value={kind} onChange={setKind} label={t('emails.import.kind')} />
        <FilePicker label={t('emails.import.file')} accept=".csv,text/csv" noFile={t('app.noFile')} onFile={onFile} />
        <Notice notice={result ? { kind: result.error ? 'error' : 'ok', text: result.text } : null} />
        <BadRows rows={result?.bad ?? []} />
      </div>
    </Dialog>
  );
}

/** The rows an import or add refused, each with its line and reason. */
export function BadRows({ rows }: { rows: EmailReject[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="emails-bad-rows" className="emails-bad">
      <h3 id="emails-bad-rows">{t('emails.import.badRows')}</h3>
      <ul data-testid="email-bad-rows">
        {rows.map((r, i) => (
          <li key={`${r.line ?? r.index}-${i}`}>
            <strong>{r.line !== null ? t('emails.import.line', { line: r.line }) : `#${(r.index ?? 0) + 1}`}</strong>
            {r.transactionId ? ` (${r.transactionId})` : ''}: {lang === 'vi' ? r.reasonVi : r.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailReject, EmailSkip } from '../../../common/calls/emails';
import { formatCount } from '../../../common/format';
import { DEFAULT_INVOICE_KIND, INVOICE_KINDS, pick, type InvoiceKind } from '../../../common/model';
import { errorText, useLang } from '../app/error-text';
import { Dialog } from '../app/Dialog';
import { SampleInvoices, useSandboxMode } from '../app/SampleInvoices';
import { FilePicker, SelectField } from '../app/fields';
import { Notice, type NoticeMessage } from '../app/Notice';
import { bridge } from '../bridge';
import { SkippedRows } from './SkippedRows';

const KINDS = INVOICE_KINDS;
const FIELDS = ['transactionId', 'receiverName', 'receiverEmail', 'ccEmail', 'bccEmail', 'replyEmail'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY_FORM: Record<Field, string> = { transactionId: '', receiverName: '', receiverEmail: '', ccEmail: '', bccEmail: '', replyEmail: '' };

export function KindSelect({ value, onChange, label }: { value: InvoiceKind; onChange: (k: InvoiceKind) => void; label: string }) {
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
  const [kind, setKind] = useState<InvoiceKind>(DEFAULT_INVOICE_KIND);
  const [error, setError] = useState<string | null>(null);
  const [skipped, setSkipped] = useState<EmailSkip[]>([]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSkipped([]);
    try {
      const r = await bridge.call('emails.add', { entries: [{ ...form, kind }] });
      const bad = r.rejected[0];
      if (bad) setError(pick(bad.reason, lang));
      else if (r.skipped.length > 0) setSkipped(r.skipped);
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
      <form noValidate onSubmit={(e) => void submit(e)} aria-label={t('emails.add.title')}>
        {sandbox && (
          <SampleInvoices
            onPick={(g) => {
              setForm({ ...form, transactionId: g.ids[0] ?? '' });
              setKind(g.kind);
            }}
          />
        )}
        <RecipientFields fields={FIELDS} form={form} onChange={(f, v) => setForm({ ...form, [f]: v })} />
        <KindSelect value={kind} onChange={setKind} label={t('emails.add.kind')} />
        <p className="hint">{t('emails.add.kindHint')}</p>
        <Notice notice={error ? { kind: 'error', text: error } : null} />
        <SkippedRows rows={skipped} onResent={() => onDone(t('emails.add.added'))} />
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
  const [kind, setKind] = useState<InvoiceKind>(DEFAULT_INVOICE_KIND);
  const [result, setResult] = useState<{ notice: NoticeMessage; bad: EmailReject[]; skipped: EmailSkip[] } | null>(null);
  const onFile = async (file: File) => {
    setResult({ notice: { kind: 'info', text: t('emails.import.reading', { name: file.name }) }, bad: [], skipped: [] });
    try {
      const text = new TextDecoder('utf-8').decode(await file.arrayBuffer());
      const r = await bridge.call('emails.importCsv', { text, kind });
      const summary = t('emails.import.result', {
        added: formatCount(r.added.length, lang),
        bad: formatCount(r.rejected.length, lang),
        skipped: formatCount(r.skipped.length, lang),
      });
      setResult({ notice: { kind: 'ok', text: summary }, bad: r.rejected, skipped: r.skipped });
      onDone();
    } catch (err) {
      setResult({ notice: { kind: 'error', text: errorText(err, lang) }, bad: [], skipped: [] });
    }
  };
  return (
    <Dialog title={t('emails.import.title')} closeLabel={t('app.close')} onClose={onClose} className="emails-dialog">
      <div className="emails-form">
        <p className="hint">{t('emails.import.hint')}</p>
        <KindSelect value={kind} onChange={setKind} label={t('emails.import.kind')} />
        <FilePicker label={t('emails.import.file')} accept=".csv,text/csv" noFile={t('app.noFile')} onFile={onFile} />
        <Notice notice={result?.notice} />
        <BadRows rows={result?.bad ?? []} />
        <SkippedRows rows={result?.skipped ?? []} onResent={onDone} />
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
            {r.transactionId ? ` (${r.transactionId})` : ''}: {pick(r.reason, lang)}
          </li>
        ))}
      </ul>
    </section>
  );
}

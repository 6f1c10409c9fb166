import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadJob, ExistingPolicy } from '../../../common/calls/downloads';
import { DEFAULT_INVOICE_KIND, downloadFlags, kindFromFlags, type DownloadDataType } from '../../../common/model';
import { formatCount } from '../../../common/format';
import { parseIdsText } from '../../../common/rules/transaction-ids';
import { useErrorText, useLang } from '../app/error-text';
import { FilePicker, SelectField, TextAreaField } from '../app/fields';
import { SampleInvoices, useSandboxMode } from '../app/SampleInvoices';
import { FolderField, useRememberedFolder } from '../app/FolderField';
import { bridge } from '../bridge';
import { ChooseIssuedDialog } from '../issued/ChooseIssuedDialog';

const INITIAL_FLAGS = downloadFlags(DEFAULT_INVOICE_KIND);
const TYPES: readonly DownloadDataType[] = ['Pdf', 'Xml', 'Html', 'All'];
const POLICIES: readonly ExistingPolicy[] = ['skip', 'overwrite', 'keepBoth'];

/** A new download job: the IDs (typed, pasted or from a file), the file type, the folder and what to do with existing files. */
export function NewJobForm(props: { onCreated: (job: DownloadJob, text: string) => void; onError: (text: string) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const sandbox = useSandboxMode();
  const lang = useLang();
  const idsHint = (h: { ids: number; duplicates: number; blanks: number }) =>
    h.duplicates + h.blanks === 0
      ? t('downloads.idsCount', { ids: formatCount(h.ids, lang) })
      : t('downloads.idsHint', { ids: formatCount(h.ids, lang), duplicates: formatCount(h.duplicates, lang), blanks: formatCount(h.blanks, lang) });
  const [idsText, setIdsText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [hint, setHint] = useState<{ ids: number; duplicates: number; blanks: number } | null>(null);
  const [type, setType] = useState<DownloadDataType>('Pdf');
  const [withCode, setWithCode] = useState(INITIAL_FLAGS.invoiceWithCode);
  const [calc, setCalc] = useState(INITIAL_FLAGS.invoiceCalcu);
  const [existing, setExisting] = useState<ExistingPolicy>('skip');
  const [unzip, setUnzip] = useState(false);
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState(false);
  /** The field the last Start found empty (named under it, the focus moved to it) until it is filled; `tries` remounts the alert so a second Start says it again. */
  const [missing, setMissing] = useState<{ field: 'ids' | 'folder'; tries: number } | null>(null);
  const { folder, setFolder, remember } = useRememberedFolder();
  /** Named until the field is filled, however it is (typed, chosen, a file, a sample). */
  const idsMissing = missing?.field === 'ids' && idsText.trim() === '';
  const folderMissing = missing?.field === 'folder' && folder.trim() === '';

  useEffect(() => {
    if (idsText.trim() === '') {
      setHint(null);
      return;
    }
    // Counted here as the person types; main reads the same text again when the job is created.
    const timer = setTimeout(() => {
      const p = parseIdsText(idsText, fileName || undefined);
      setHint({ ids: p.ids.length, duplicates: p.duplicates, blanks: p.blanks });
    }, 200);
    return () => clearTimeout(timer);
  }, [idsText, fileName]);

  const onFile = async (file: File) => {
    setIdsText(await file.text());
    setFileName(file.name);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const empty = idsText.trim() === '' ? 'ids' : folder.trim() === '' ? 'folder' : null;
    setMissing(empty && { field: empty, tries: (missing?.tries ?? 0) + 1 });
    if (empty) {
      document.getElementById(empty === 'ids' ? 'downloads-ids' : 'downloads-folder')?.focus();
      return;
    }
    setBusy(true);
    try {
      const res = await bridge.call('downloads.create', {
        idsText,
        ...(fileName ? { fileName } : {}),
        type,
        kind: kindFromFlags(withCode, calc),
        folder,
        existing,
        unzip: type === 'All' && unzip,
      });
      remember();
      props.onCreated(
        res.job,
        `${t('downloads.created', { n: formatCount(res.added, lang) })} ${idsHint({ ids: res.added, duplicates: res.duplicates, blanks: res.blanks })}`,
      );
      setIdsText('');
      setFileName(undefined);
    } catch (error) {
      props.onError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="downloads-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="downloads-new">
      <h2 id="downloads-new">{t('downloads.newJob')}</h2>
      <TextAreaField
        id="downloads-ids"
        className="downloads-ids"
        label={t('downloads.ids')}
        value={idsText}
        rows={5}
        spellCheck={false}
        onText={(text) => {
          setIdsText(text);
          setFileName(undefined);
        }}
        aria-invalid={idsMissing || undefined}
        aria-describedby={idsMissing ? 'downloads-missing' : undefined}
      />
      {idsMissing && <Missing key={missing.tries} text={t('downloads.needIds')} />}
      <button type="button" onClick={() => setChoosing(true)}>
        {t('issued.choose.open')}
      </button>
      {choosing && (
        <ChooseIssuedDialog
          useLabel={(count) => t('issued.choose.use', { count })}
          onClose={() => setChoosing(false)}
          onUse={async (rows) => {
            const kinds = new Set(rows.map((r) => r.kind));
            const kind = rows[0]?.kind;
            if (kinds.size !== 1 || !kind) return t('issued.choose.mixedKinds');
            setIdsText(rows.map((r) => r.transactionId).join('\n'));
            setFileName(undefined);
            const flags = downloadFlags(kind);
            setWithCode(flags.invoiceWithCode);
            setCalc(flags.invoiceCalcu);
            setChoosing(false);
            return null;
          }}
        />
      )}
      {sandbox && (
        <SampleInvoices
          onPick={(g) => {
            setIdsText(g.ids.join('\n'));
            setFileName(undefined);
            const flags = downloadFlags(g.kind);
            setWithCode(flags.invoiceWithCode);
            setCalc(flags.invoiceCalcu);
          }}
        />
      )}
      {hint && (
        <p className="downloads-hint" data-testid="ids-hint">
          {idsHint(hint)}
        </p>
      )}
      <FilePicker label={t('downloads.importFile')} accept=".txt,.csv,text/plain,text/csv" noFile={t('app.noFile')} onFile={onFile} />
      <fieldset>
        <legend>{t('downloads.type')}</legend>
        {TYPES.map((ty) => (
          <label key={ty}>
            <input type="radio" name="download-type" value={ty} checked={type === ty} onChange={() => setType(ty)} /> {t(`downloads.types.${ty}`)}
          </label>
        ))}
      </fieldset>
      <label>
        <input type="checkbox" checked={withCode} onChange={(e) => setWithCode(e.target.checked)} /> {t('downloads.withCode')}
      </label>
      <label>
        <input type="checkbox" checked={calc} onChange={(e) => setCalc(e.target.checked)} /> {t('downloads.calc')}
      </label>
      {type === 'All' && (
        <label>
          <input type="checkbox" checked={unzip} onChange={(e) => setUnzip(e.target.checked)} /> {t('downloads.unzip')}
        </label>
      )}
      <FolderField
        id="downloads-folder"
        label={t('downloads.folder')}
        value={folder}
        onChange={setFolder}
        onError={(error) => props.onError(errorText(error))}
        problemId={folderMissing ? 'downloads-missing' : undefined}
      />
      {folderMissing && <Missing key={missing.tries} text={t('downloads.needFolder')} />}
      <SelectField
        className="downloads-select"
        label={t('downloads.existing')}
        value={existing}
        onChange={setExisting}
        options={POLICIES.map((p) => ({ value: p, label: t(`downloads.policies.${p}`) }))}
      />
      {/* Never disabled: a disabled button says nothing of why and drops the keyboard's focus. */}
      <button type="submit" className="primary" aria-disabled={busy}>
        {t('downloads.start')}
      </button>
    </form>
  );
}

/** What Start found missing, next to its field (the field has the focus). */
function Missing({ text }: { text: string }) {
  return (
    <p id="downloads-missing" className="downloads-missing" role="alert">
      {text}
    </p>
  );
}

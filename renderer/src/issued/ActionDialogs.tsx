import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice } from '../../../common/calls/register';
import type { DownloadDataType } from '../../../common/model';
import { formatCount } from '../../../common/format';
import { downloadGroups, invoiceName } from '../../../common/rules/issued-register';
import { Dialog } from '../app/Dialog';
import { useErrorText, useLang } from '../app/error-text';
import { FolderField, useRememberedFolder } from '../app/FolderField';
import { SelectField, TextAreaField } from '../app/fields';
import { Notice } from '../app/Notice';
import { bridge } from '../bridge';

const TYPES: readonly DownloadDataType[] = ['Pdf', 'Xml', 'Html', 'All'];
const CONVERTER_KEY = 'einvoice.paperConverter';

function useDialogError() {
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  return { error, fail: (e: unknown) => setError(errorText(e)), setError };
}

/** Download the chosen invoices through the download engine: one job per kind, into the remembered folder. */
export function DownloadDialog({ rows, onDone, onClose }: { rows: IssuedInvoice[]; onDone: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { folder, setFolder, remember } = useRememberedFolder();
  const [type, setType] = useState<DownloadDataType>('Pdf');
  const [busy, setBusy] = useState(false);
  const { error, fail } = useDialogError();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const groups = downloadGroups(rows);
      for (const g of groups) await bridge.call('downloads.create', { ids: g.ids, type, kind: g.kind, folder: folder.trim() });
      remember();
      onDone(t('issued.downloadDialog.started', { jobs: groups.length, count: formatCount(rows.length, lang) }));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t('issued.downloadDialog.title', { count: formatCount(rows.length, lang) })}
      closeLabel={t('app.close')}
      onClose={onClose}
      className="issued-dialog"
    >
      <form onSubmit={(e) => void submit(e)} aria-label={t('issued.downloadDialog.title', { count: formatCount(rows.length, lang) })}>
        <FolderField label={t('issued.downloadDialog.folder')} value={folder} onChange={setFolder} onError={fail} />
        <SelectField
          label={t('issued.downloadDialog.type')}
          value={type}
          onChange={setType}
          options={TYPES.map((ty) => ({ value: ty, label: t(`downloads.types.${ty}`) }))}
        />
        <Notice notice={error ? { kind: 'error', text: error } : null} />
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={busy || folder.trim() === ''}>
            {t('issued.downloadDialog.start')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Save the paper-converted copies (issued.paperCopy): the converter's name is asked, and remembered on this computer. */
export function PaperDialog({ rows, onDone, onClose }: { rows: IssuedInvoice[]; onDone: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { folder, setFolder } = useRememberedFolder();
  const [converter, setConverter] = useState(() => localStorage.getItem(CONVERTER_KEY) ?? '');
  const [busy, setBusy] = useState(false);
  const { error, fail } = useDialogError();
  const title = t('issued.paperDialog.title', { count: formatCount(rows.length, lang) });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await bridge.call('issued.paperCopy', {
        transactionIds: rows.map((inv) => inv.transactionId),
        converter: converter.trim(),
        folder: folder.trim(),
      });
      localStorage.setItem(CONVERTER_KEY, converter.trim());
      const failed = r.failed.map(
        (f) => `${invoiceName(rows.find((inv) => inv.transactionId === f.transactionId) ?? { invSeries: '', invNo: f.transactionId })}: ${f.message}`,
      );
      onDone([t('issued.paperDialog.done', { written: r.written.length, failed: r.failed.length, folder: folder.trim() }), ...failed].join('\n'));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} closeLabel={t('app.close')} onClose={onClose} className="issued-dialog">
      <form onSubmit={(e) => void submit(e)} aria-label={title}>
        <label className="field">
          <span>{t('issued.paperDialog.converter')}</span>
          <input type="text" value={converter} required maxLength={100} onChange={(e) => setConverter(e.target.value)} />
        </label>
        <FolderField label={t('issued.paperDialog.folder')} value={folder} onChange={setFolder} onError={fail} />
        <Notice notice={error ? { kind: 'error', text: error } : null} />
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={busy || converter.trim() === '' || folder.trim() === ''}>
            {t('issued.paperDialog.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Adjust or replace: the reason is required; the new draft is made from the register row by main. */
export function CorrectionDialog({
  inv,
  correction,
  onDone,
  onClose,
}: {
  inv: IssuedInvoice;
  correction: 'adjust' | 'replace';
  onDone: (draftId: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, fail, setError } = useDialogError();
  const title = t(correction === 'adjust' ? 'issued.correction.adjustTitle' : 'issued.correction.replaceTitle', { name: invoiceName(inv) });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError(t('issued.correction.reasonMissing'));
    setBusy(true);
    try {
      const { draftId } = await bridge.call('issued.draftCorrection', { transactionId: inv.transactionId, correction, reason: reason.trim() });
      onDone(draftId);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} closeLabel={t('app.close')} onClose={onClose} className="issued-dialog">
      <form onSubmit={(e) => void submit(e)} aria-label={title} noValidate>
        <p className="hint">{t('issued.correction.hint')}</p>
        <TextAreaField
          label={t('issued.correction.reason')}
          value={reason}
          rows={3}
          required
          maxLength={500}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'correction-error' : undefined}
          onText={setReason}
        />
        <Notice id="correction-error" notice={error ? { kind: 'error', text: error } : null} />
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={busy}>
            {t('issued.correction.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailEntry } from '../../../common/calls/emails';
import { useErrorText } from '../app/error-text';
import { Dialog } from '../app/Dialog';
import { Notice } from '../app/Notice';
import { bridge } from '../bridge';
import { RecipientFields } from './EmailForms';

const EDITABLE_FIELDS = ['receiverName', 'receiverEmail', 'ccEmail', 'bccEmail', 'replyEmail'] as const;

/** Changes the recipients of one entry that has not gone out. */
export function EditDialog({ entry, onClose, onSaved }: { entry: EmailEntry; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [form, setForm] = useState({
    receiverName: entry.receiverName,
    receiverEmail: entry.receiverEmail,
    ccEmail: entry.ccEmail,
    bccEmail: entry.bccEmail,
    replyEmail: entry.replyEmail,
  });
  const [error, setError] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await bridge.call('emails.update', { id: entry.id, ...form });
      onSaved();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Dialog title={t('emails.editDialog.title', { tx: entry.transactionId })} closeLabel={t('app.close')} onClose={onClose} className="emails-dialog">
      <form onSubmit={(e) => void save(e)} aria-label={t('emails.editDialog.title', { tx: entry.transactionId })}>
        <RecipientFields fields={EDITABLE_FIELDS} form={form} onChange={(f, v) => setForm({ ...form, [f]: v })} />
        <Notice notice={error ? { kind: 'error', text: error } : null} />
        <div className="dialog-buttons">
          <button type="submit" className="primary">
            {t('emails.editDialog.save')}
          </button>
          <button type="button" onClick={onClose}>
            {t('emails.editDialog.close')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_SORT_KEYS, EMAIL_STATES, type EmailEntry, type EmailState } from '../../../common/calls/emails';
import { pick } from '../../../common/model';
import { formatCount, formatTime } from '../../../common/format';
import { isEditableEmail, resendNeedsConfirmation } from '../../../common/rules/email-queue';
import { useErrorText, useLang } from '../app/error-text';
import { SelectField } from '../app/fields';
import { Notice, useNotice } from '../app/Notice';
import { saveTextFile } from '../app/save-file';
import { useAppStore } from '../app/store';
import { bridge } from '../bridge';
import { ChooseIssuedDialog } from '../issued/ChooseIssuedDialog';
import { buyerEmails } from '../../../common/rules/issued-register';
import { EditDialog } from './EditDialog';
import { AddDialog, ImportDialog } from './EmailForms';
import { EmailTable } from './EmailTable';
import { FIRST_QUERY, useEmailQueue, type SortDir, type SortKey } from './useEmailQueue';

/** The email queue screen: counts per state, filter, search, sort, a virtualised table, bulk actions, add, import, export. */
export function EmailsArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const errorText = useErrorText();
  const { notice, show, fail, clear } = useNotice({ autoHideMs: 10_000 });
  const [filter, setFilter] = useState<EmailState | 'all'>(FIRST_QUERY.filter);
  // "Open in the email queue" elsewhere hands over the invoice to look for.
  const [search, setSearch] = useState(() => useAppStore.getState().emailSearch ?? '');
  useEffect(() => useAppStore.getState().clearEmailSearch(), []);
  const [sort, setSort] = useState<SortKey>(FIRST_QUERY.sort);
  const [dir, setDir] = useState<SortDir>(FIRST_QUERY.dir);
  const [dialog, setDialog] = useState<'add' | 'import' | 'issued' | null>(null);
  const [editing, setEditing] = useState<EmailEntry | null>(null);
  const queue = useEmailQueue({ filter, search, sort, dir }, fail);
  const { selected, setSelected, status } = queue;

  const run = async (fn: () => Promise<string | null>) => {
    try {
      const text = await fn();
      if (text) show('ok', text);
      await queue.reload();
    } catch (e) {
      show('error', t('emails.error', { message: errorText(e) }));
    }
  };

  const selectedIds = useMemo(() => [...selected.keys()], [selected]);
  const selectedStates = useMemo(() => [...selected.values()].map((state) => ({ state })), [selected]);
  const onlyOne = selectedStates.length === 1 ? selectedStates[0]! : null;
  const edit = () =>
    run(async () => {
      const id = selectedIds[0]!;
      setEditing((await bridge.call('emails.history', { id })).entry);
      return null;
    });

  const bulk = (call: 'emails.retry' | 'emails.cancel' | 'emails.remove') =>
    run(async () => {
      if (call === 'emails.remove' && !window.confirm(t('emails.confirmRemove', { count: selectedIds.length }))) return null;
      if (call === 'emails.retry') {
        // Entries the buyer may already have received go again only on the person's explicit choice.
        const maybeSent = resendNeedsConfirmation(selectedStates);
        if (maybeSent > 0 && !window.confirm(t('emails.confirmResend', { count: maybeSent }))) return null;
        const r = await bridge.call(maybeSent > 0 ? 'emails.resend' : 'emails.retry', { ids: selectedIds });
        setSelected(new Map());
        return [t('emails.requeued', { count: r.changed }), ...r.left.map((l) => pick(l.reason, lang))].join('\n');
      }
      const r = await bridge.call(call, { ids: selectedIds });
      setSelected(new Map());
      return t('emails.changed', { changed: r.changed, skipped: r.skipped });
    });

  const sortBy = (key: SortKey) => {
    if (sort === key) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir('asc');
    }
  };

  const sender = status?.sender;
  const senderText = sender
    ? sender.state === 'backoff'
      ? t('emails.sender.backoff', { time: sender.nextAttemptAt ? formatTime(sender.nextAttemptAt, lang) : '…' })
      : t(`emails.sender.${sender.state}`)
    : '';
  const senderError = sender?.lastError ? pick(sender.lastError, lang) : null;

  const exportCsv = () =>
    run(async () => {
      const r = await bridge.call('emails.exportCsv', queue.exportQuery);
      saveTextFile(r.fileName, r.csv, 'text/csv;charset=utf-8');
      return t('emails.exported', { count: r.count });
    });

  return (
    <section className="emails" aria-labelledby="emails-heading">
      <h2 id="emails-heading" className="visually-hidden">
        {t('areas.emails')}
      </h2>
      <div className={`emails-sender emails-sender-${sender?.state ?? 'idle'}`}>
        <p role="status" data-testid="email-sender-status">
          {senderText}
          {senderError && sender?.state !== 'idle' && sender?.state !== 'flushing' ? ` — ${senderError}` : ''}
        </p>
        <button type="button" onClick={() => void run(async () => (await bridge.call('emails.flush', {}), null))}>
          {t('emails.sendNow')}
        </button>
      </div>

      <div role="group" aria-label={t('emails.filters')} className="emails-filters">
        {(['all', ...EMAIL_STATES] as const).map((s) => {
          const n = s === 'all' ? (status?.total ?? 0) : (queue.counts?.[s] ?? 0);
          return (
            <button key={s} type="button" aria-pressed={filter === s} className={`chip chip-${s}`} onClick={() => setFilter(s)} data-state={s}>
              {t(`emails.states.${s}`)} <span className="chip-count">{formatCount(n, lang)}</span>
            </button>
          );
        })}
      </div>

      <div className="emails-toolbar">
        <div className="toolbar-buttons">
          <button type="button" className="primary" onClick={() => setDialog('add')}>
            {t('emails.add.open')}
          </button>
          <button type="button" onClick={() => setDialog('import')}>
            {t('emails.import.open')}
          </button>
          <button type="button" onClick={() => setDialog('issued')}>
            {t('issued.choose.open')}
          </button>
          <button type="button" onClick={() => void exportCsv()}>
            {t('emails.export')}
          </button>
        </div>
        <label className="field grow">
          <span>{t('emails.search')}</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <SelectField
          label={t('emails.sortBy')}
          value={sort}
          onChange={setSort}
          options={EMAIL_SORT_KEYS.map((k) => ({ value: k, label: t(`emails.col.${k}`) }))}
        />
        <SelectField
          label={t('emails.sortDir')}
          value={dir}
          onChange={setDir}
          options={(['asc', 'desc'] as const).map((d) => ({ value: d, label: t(`emails.${d}`) }))}
        />
      </div>

      <div className="emails-actions" role="group" aria-label={t('emails.selected', { count: selected.size })}>
        <span aria-live="polite">{t('emails.selected', { count: selected.size })}</span>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.retry')}>
          {t('emails.retry')}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.cancel')}>
          {t('emails.cancel')}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.remove')}>
          {t('emails.remove')}
        </button>
        <button type="button" disabled={!onlyOne || !isEditableEmail(onlyOne)} onClick={() => void edit()}>
          {t('emails.edit')}
        </button>
      </div>

      <Notice notice={notice} floating onDismiss={clear} dismissLabel={t('app.dismiss')} />

      <EmailTable queue={queue} lang={lang} sort={sort} dir={dir} onSort={sortBy} />

      {dialog === 'add' && (
        <AddDialog
          onDone={(text) => {
            setDialog(null);
            void run(async () => text);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'issued' && (
        <ChooseIssuedDialog
          useLabel={(count) => t('issued.choose.queueEmails', { count })}
          onClose={() => setDialog(null)}
          onUse={async (rows) => {
            const { entries, missing } = buyerEmails(rows);
            const r = entries.length > 0 ? await bridge.call('emails.add', { entries }) : { added: [], skipped: [] };
            setDialog(null);
            void run(async () => t('issued.emailDone', { added: r.added.length, skipped: r.skipped.length, missing: missing.length }));
            return null;
          }}
        />
      )}
      {dialog === 'import' && <ImportDialog onDone={() => void queue.reload()} onClose={() => setDialog(null)} />}
      {editing && (
        <EditDialog
          entry={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queue.reload();
          }}
        />
      )}
    </section>
  );
}

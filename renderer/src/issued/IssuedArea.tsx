import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice, SyncProgress } from '../../../common/calls/register';
import { formatCount } from '../../../common/format';
import { buyerEmails, dayText, invoiceName } from '../../../common/rules/issued-register';
import { useLang } from '../app/error-text';
import { Notice, useNotice } from '../app/Notice';
import { useAppStore } from '../app/store';
import { bridge } from '../bridge';
import { openDraft } from '../drafts/DraftsArea';
import { CorrectionDialog, DownloadDialog, PaperDialog } from './ActionDialogs';
import { IssuedFilters } from './IssuedFilters';
import { IssuedTable, type RowAction } from './IssuedTable';
import { useRegisterScreen } from './useRegisterScreen';
import { openIssuedView } from './view';
import { syncProgressText } from './words';

type Open = { dialog: 'download' | 'paper' } | { dialog: 'adjust' | 'replace'; inv: IssuedInvoice } | null;

/** The Issued invoices area: a date range synced from the service, the table, and what to do with the chosen invoices. */
export function IssuedArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const { notice, show, fail, clear } = useNotice({ autoHideMs: 15_000 });
  const setArea = useAppStore((s) => s.setArea);
  const screen = useRegisterScreen(fail, true);
  const { filter, setFilter, range, pages, selection } = screen;
  const [open, setOpen] = useState<Open>(null);
  const [syncing, setSyncing] = useState(false);
  const [sync, setSync] = useState<SyncProgress | null>(null);
  useEffect(() => bridge.on('issued.syncProgress', setSync), []);

  const runSync = async () => {
    if (!range) return;
    setSyncing(true);
    setSync(null);
    try {
      const r = await bridge.call('issued.sync', range);
      show(
        'ok',
        t('issued.synced', { fetched: formatCount(r.fetched, lang), added: formatCount(r.added, lang), refreshed: formatCount(r.statusRefreshed, lang) }),
      );
      pages.refresh();
    } catch (error) {
      fail(error);
    } finally {
      setSyncing(false);
    }
  };

  const email = async () => {
    const { entries, missing } = buyerEmails(selection.list);
    try {
      let added = 0;
      let skipped = 0;
      if (entries.length > 0) {
        const r = await bridge.call('emails.add', { entries });
        added = r.added.length;
        skipped = r.skipped.length;
      }
      const names = missing.slice(0, 5).map(invoiceName);
      show(missing.length > 0 ? 'warning' : 'ok', [t('issued.emailDone', { added, skipped, missing: missing.length }), ...names].join('\n'));
    } catch (error) {
      fail(error);
    }
  };

  const onAction = useCallback(
    (action: RowAction, inv: IssuedInvoice, target?: string) => {
      if (action === 'view') {
        void openIssuedView(inv.transactionId).then(() => show('ok', t('issued.opened', { name: invoiceName(inv) })), fail);
      } else if (action === 'adjust' || action === 'replace') setOpen({ dialog: action, inv });
      else if (action === 'goTo' && target) {
        bridge.call('issued.get', { transactionId: target }).then((other) => {
          const day = dayText(other.invDate);
          setFilter({ preset: 'custom', fromText: day, toText: day, series: other.invSeries, kind: '', text: other.invNo });
        }, fail);
      }
    },
    [fail, show, t, setFilter],
  );

  const count = selection.list.length;
  return (
    <section className="issued" aria-labelledby="issued-heading">
      <h2 id="issued-heading" className="visually-hidden">
        {t('areas.issued')}
      </h2>
      <IssuedFilters value={filter} onChange={setFilter} error={screen.dateError} />
      <div className="issued-bar">
        <button type="button" disabled={syncing || !range} onClick={() => void runSync()}>
          {syncing ? t('issued.syncing') : t('issued.sync')}
        </button>
        {syncing && sync && sync.phase !== 'done' && (
          <>
            <progress aria-label={t('issued.syncProgress')} max={Math.max(1, sync.total)} value={sync.total > 0 ? sync.seen : undefined} />
            <span role="status">{syncProgressText(sync, lang, t)}</span>
          </>
        )}
        <div className="issued-selection" role="group" aria-label={t('issued.selected', { count })}>
          <span aria-live="polite" data-testid="issued-selected">
            {t('issued.selected', { count: formatCount(count, lang) })}
          </span>
          <button type="button" className="primary" disabled={count === 0} onClick={() => setOpen({ dialog: 'download' })}>
            {t('issued.download')}
          </button>
          <button type="button" disabled={count === 0} onClick={() => void email()}>
            {t('issued.email')}
          </button>
          <button type="button" disabled={count === 0 || count > 1000} onClick={() => setOpen({ dialog: 'paper' })}>
            {t('issued.paper')}
          </button>
          <button type="button" disabled={count === 0} onClick={selection.clear}>
            {t('issued.clearSelection')}
          </button>
        </div>
      </div>
      <Notice notice={notice} floating onDismiss={clear} dismissLabel={t('app.dismiss')} />
      <IssuedTable screen={screen} lang={lang} actions onWarn={(text) => show('warning', text)} onAction={onAction} />
      {open?.dialog === 'download' && (
        <DownloadDialog
          rows={selection.list}
          onClose={() => setOpen(null)}
          onDone={(text) => {
            setOpen(null);
            show('ok', text);
          }}
        />
      )}
      {open?.dialog === 'paper' && (
        <PaperDialog
          rows={selection.list}
          onClose={() => setOpen(null)}
          onDone={(text) => {
            setOpen(null);
            show('ok', text);
          }}
        />
      )}
      {(open?.dialog === 'adjust' || open?.dialog === 'replace') && (
        <CorrectionDialog
          inv={open.inv}
          correction={open.dialog}
          onClose={() => setOpen(null)}
          onDone={(draftId) => {
            setOpen(null);
            void openDraft(draftId).then(() => setArea('drafts'), fail);
          }}
        />
      )}
    </section>
  );
}

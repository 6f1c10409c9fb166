import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ISSUE_STATES, type IssueEntry, type IssueState } from '../../../common/calls/issuing';
import { formatCount } from '../../../common/format';
import { useLang } from '../app/error-text';
import { Notice, useNotice } from '../app/Notice';
import { useAppStore } from '../app/store';
import { useLive } from '../app/useLive';
import { bridge } from '../bridge';
import { openDraft } from '../drafts/DraftsArea';
import { IssueTable } from './IssueTable';
import { runnerText } from './words';

/** The most rows the table shows at once (newest first); the counts cover everything. */
const SHOWN = 500;

/**
 * The issue queue: how issuing is going (waiting for the connection, paused, backing off), counts
 * per state as filters, and each invoice with its outcome or the service's reason in words, and
 * what can be done about it.
 */
export function IssuingArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const { notice, show, fail, clear } = useNotice({ autoHideMs: 10_000 });
  const setArea = useAppStore((s) => s.setArea);
  const openEmails = useAppStore((s) => s.openEmails);
  const online = useAppStore((s) => s.online);
  const [filter, setFilter] = useState<IssueState | 'all'>('all');
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const throttle = { throttleMs: () => 300, onError: fail };
  const status = useLive('issuing.status', {}, { 'issuing.changed': 'reload' }, throttle);
  const list = useLive('issuing.list', { ...(filter === 'all' ? {} : { states: [filter] }), limit: SHOWN }, { 'issuing.changed': 'reload' }, throttle);
  const counts = status.data?.counts;
  const unknown = counts?.unknown ?? 0;

  const run = async (key: number | 'all', fn: () => Promise<string | null>) => {
    setBusy(key);
    try {
      const text = await fn();
      if (text) show('ok', text);
      await Promise.all([status.reload(), list.reload()]);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const actions = {
    retry: (e: IssueEntry) => run(e.id, async () => (await bridge.call('issuing.retry', { id: e.id }), t('issuing.area.retried'))),
    check: (e: IssueEntry) => run(e.id, async () => t('issuing.banner.checked', await bridge.call('issuing.check', { ids: [e.id] }))),
    reopen: (e: IssueEntry) =>
      run(e.id, async () => {
        const { draftId } = await bridge.call('issuing.reopen', { id: e.id });
        await openDraft(draftId);
        setArea('drafts');
        return null;
      }),
    openEmail: (e: IssueEntry) => e.transactionId && openEmails(e.transactionId),
    chooseFolder: () => setArea('settings'),
  };

  const runner = status.data?.runner;
  return (
    <section className="issuing" aria-labelledby="issuing-heading">
      <h2 id="issuing-heading" className="visually-hidden">
        {t('areas.issuing')}
      </h2>
      <div className={`issuing-runner issuing-runner-${runner?.state ?? 'idle'}`} role="group" aria-label={t('issuing.area.runnerLabel')}>
        <p role="status" data-testid="issue-runner-status">
          {runner ? runnerText(runner, counts, lang, t) : ''}
        </p>
        <button type="button" disabled={busy !== null} onClick={() => void run('all', async () => (await bridge.call('issuing.flush', {}), null))}>
          {t('issuing.area.sendNow')}
        </button>
        <button
          type="button"
          disabled={unknown === 0 || busy !== null}
          onClick={() => void run('all', async () => t('issuing.banner.checked', await bridge.call('issuing.check', {})))}
        >
          {t('issuing.area.checkAll', { count: unknown })}
        </button>
      </div>

      <div role="group" aria-label={t('issuing.area.filters')} className="issuing-filters">
        {(['all', ...ISSUE_STATES] as const).map((s) => {
          const n = s === 'all' ? (status.data?.total ?? 0) : (counts?.[s] ?? 0);
          return (
            <button key={s} type="button" aria-pressed={filter === s} className={`chip chip-${s}`} onClick={() => setFilter(s)} data-state={s}>
              {t(`issuing.states.${s}`)} <span className="chip-count">{formatCount(n, lang)}</span>
            </button>
          );
        })}
      </div>

      <Notice notice={notice} floating onDismiss={clear} dismissLabel={t('app.dismiss')} />

      {list.data && list.data.items.length === 0 ? (
        <p className="issuing-empty">{filter === 'all' ? t('issuing.area.empty') : t('issuing.area.emptyFilter')}</p>
      ) : (
        <IssueTable items={list.data?.items ?? []} busy={busy} offline={online === false || runner?.state === 'offline'} actions={actions} />
      )}
      {list.data && list.data.total > list.data.items.length && (
        <p className="hint">{t('issuing.area.shown', { shown: formatCount(list.data.items.length, lang), total: formatCount(list.data.total, lang) })}</p>
      )}
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../../../common/format';
import { issueEntryActions } from '../../../../common/rules/issue-actions';
import { useLang } from '../../app/error-text';
import { Notice, useNotice } from '../../app/Notice';
import { useAppStore } from '../../app/store';
import { useLive } from '../../app/useLive';
import { bridge } from '../../bridge';
import { bannerHeadline, followUpText, formatTotal, reasonOf } from '../../issuing/words';
import { useEditor, type DraftIssue } from './store';

/**
 * The state of a draft that went out for issuing, in words, over the read-only editor: waiting
 * (and whether for the connection), issued with its number, refused with the reason and a way to
 * edit it and queue it again, or unknown with "check now".
 */
export function IssueBanner({ issue }: { issue: NonNullable<DraftIssue> }) {
  const { t } = useTranslation();
  const lang = useLang();
  const online = useAppStore((s) => s.online);
  const openEmails = useAppStore((s) => s.openEmails);
  const setArea = useAppStore((s) => s.setArea);
  const { notice, show, fail, clear } = useNotice({ autoHideMs: 8000 });
  const [busy, setBusy] = useState(false);
  // Any change of the queue may be this invoice (a pass reports its ids, a status change none).
  const live = useLive('issuing.get', { id: issue.id }, { 'issuing.changed': 'reload' }, { onError: fail, throttleMs: () => 200 });
  const entry = live.data ?? null;

  // Keep the editor's copy (and so the lock) in step with the queue.
  useEffect(() => {
    if (!entry) return;
    const current = useEditor.getState().issue;
    if (current && current.id === entry.id && (current.state !== entry.state || current.invNo !== entry.invNo)) {
      useEditor.getState().setIssue({ id: entry.id, state: entry.state, invNo: entry.invNo });
    }
  }, [entry]);

  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);

  const act = async (fn: () => Promise<string | null>) => {
    setBusy(true);
    try {
      const text = await fn();
      if (text) show('ok', text);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const reopen = () =>
    act(async () => {
      const { draftId } = await bridge.call('issuing.reopen', { id: issue.id });
      useEditor.getState().load(await bridge.call('drafts.get', { id: draftId }));
      return null;
    });

  const state = entry?.state ?? issue.state;
  const headline = bannerHeadline(entry ?? { state, invNo: issue.invNo, nextAttemptAt: null }, online, lang, t);
  const reason = entry ? reasonOf(entry, lang) : { text: null, code: null };
  const details: string[] = [];
  if (entry) {
    details.push(t('issuing.banner.details', { series: entry.invSeries, date: formatDate(entry.invDate, lang) }), formatTotal(entry.total, entry.currency));
    if (entry.transactionId) details.push(t('issuing.banner.lookup', { tx: entry.transactionId }));
    if (entry.invoiceCode) details.push(t('issuing.banner.taxCode', { code: entry.invoiceCode }));
  }
  const followUps = entry && state === 'issued' ? followUpText(entry, t) : '';
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={`issue-banner issue-${state}`}
      aria-label={t('issuing.banner.label')}
      data-testid="issue-banner"
      data-state={state}
    >
      <p role="status" className="issue-headline">
        {headline}
      </p>
      {details.length > 0 && <p className="issue-details">{details.join(' · ')}</p>}
      {state !== 'issued' && reason.text && (
        <p className="issue-reason" data-testid="issue-reason">
          {reason.text}
          {reason.code && <small className="error-code"> {reason.code}</small>}
        </p>
      )}
      {state === 'unknown' && (
        <p className="issue-details">
          {t('issuing.banner.unknownHint')}
          {entry?.nextAttemptAt ? ` ${t('issuing.banner.nextCheck', { time: formatTime(entry.nextAttemptAt, lang) })}` : ''}
        </p>
      )}
      {followUps && <p className="issue-details">{followUps}</p>}
      <div className="issue-actions">
        {state === 'failed' && (
          <button type="button" className="primary" disabled={busy} onClick={() => void reopen()}>
            {t('issuing.banner.reopen')}
          </button>
        )}
        {state === 'failed' && entry?.retryable && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(async () => (await bridge.call('issuing.retry', { id: issue.id }), t('issuing.area.retried')))}
          >
            {t('issuing.banner.retry')}
          </button>
        )}
        {state === 'unknown' && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void act(async () => t('issuing.banner.checked', await bridge.call('issuing.check', { ids: [issue.id] })))}
          >
            {t('issuing.banner.check')}
          </button>
        )}
        {entry?.emailId != null && entry.transactionId && (
          <button type="button" onClick={() => openEmails(entry.transactionId!)}>
            {t('issuing.banner.openEmails')}
          </button>
        )}
        {entry && issueEntryActions(entry).chooseFolder && (
          <button type="button" onClick={() => setArea('settings')}>
            {t('issuing.followUp.chooseFolder')}
          </button>
        )}
        <button type="button" onClick={() => setArea('issuing')}>
          {t('issuing.banner.openQueue')}
        </button>
      </div>
      <p className="hint">{t('issuing.banner.locked')}</p>
      <Notice notice={notice} onDismiss={clear} dismissLabel={t('app.dismiss')} />
    </section>
  );
}

import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssueEntry } from '../../../common/calls/issuing';
import { formatDateTime } from '../../../common/format';
import { useLang } from '../app/error-text';
import { ColumnHeaders } from '../app/fields';
import { issueEntryActions } from '../../../common/rules/issue-actions';
import { formatTotal, resultText, supersededIds } from './words';

export interface IssueActions {
  retry(e: IssueEntry): void;
  check(e: IssueEntry): void;
  reopen(e: IssueEntry): void;
  openEmail(e: IssueEntry): void;
  /** Settings, to choose the download folder the invoice's file waits for. */
  chooseFolder(): void;
}

/** The queue's invoices, newest first: what they are, where they stand, why, and what to do. */
export function IssueTable({
  items,
  busy,
  offline,
  actions,
}: {
  items: IssueEntry[];
  busy: number | 'all' | null;
  /** The connection is down: waiting invoices say only that. */
  offline: boolean;
  actions: IssueActions;
}) {
  const { t } = useTranslation();
  const superseded = useMemo(() => supersededIds(items), [items]);
  return (
    <table className="issuing-table" aria-label={t('issuing.area.table')}>
      <ColumnHeaders
        columns={[
          t('issuing.area.col.series'),
          t('issuing.area.col.invNo'),
          t('issuing.area.col.buyer'),
          { label: t('issuing.area.col.total'), className: 'num' },
          t('issuing.area.col.state'),
          t('issuing.area.col.reason'),
          t('issuing.area.col.updated'),
          t('issuing.area.col.actions'),
        ]}
      />
      <tbody>
        {items.map((e) => (
          <Row key={e.id} entry={e} disabled={busy !== null} offline={offline} superseded={superseded.has(e.id)} actions={actions} />
        ))}
      </tbody>
    </table>
  );
}

interface RowProps {
  entry: IssueEntry;
  disabled: boolean;
  offline: boolean;
  superseded: boolean;
  actions: IssueActions;
}

const Row = memo(function Row({ entry: e, disabled, offline, superseded, actions }: RowProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const result = resultText(e, lang, t, { offline, superseded });
  const allowed = issueEntryActions(e);
  const buyer = e.buyerName || t('issuing.dialog.walkIn');
  return (
    <tr data-state={e.state} data-ref={e.refId} data-testid="issue-row">
      <td>{e.invSeries}</td>
      <td className="mono">{e.invNo ?? '—'}</td>
      <td className="buyer" title={e.buyerEmail ? `${buyer} · ${e.buyerEmail}` : buyer}>
        {buyer}
      </td>
      <td className="num">{formatTotal(e.total, e.currency)}</td>
      <td>
        <span className={`issue-badge issue-badge-${e.state}`}>{t(`issuing.states.${e.state}`)}</span>
      </td>
      <td className={superseded ? 'reason superseded' : 'reason'} data-col="reason">
        {result.text}
        {result.code && <small className="error-code"> {result.code}</small>}
      </td>
      <td className="when">{formatDateTime(e.updatedAt, lang)}</td>
      <td>
        <div className="issue-row-actions">
          {allowed.retry && (
            <button type="button" disabled={disabled} onClick={() => actions.retry(e)} aria-label={t('issuing.area.retryOf', { buyer })}>
              {t('issuing.area.retry')}
            </button>
          )}
          {allowed.reopen && (
            <button type="button" disabled={disabled} onClick={() => actions.reopen(e)} aria-label={t('issuing.area.reopenOf', { buyer })}>
              {t('issuing.area.reopen')}
            </button>
          )}
          {allowed.check && (
            <button type="button" disabled={disabled} onClick={() => actions.check(e)} aria-label={t('issuing.area.checkOf', { buyer })}>
              {t('issuing.area.check')}
            </button>
          )}
          {allowed.openEmail && (
            <button type="button" onClick={() => actions.openEmail(e)} aria-label={t('issuing.area.openEmailOf', { invNo: e.invNo ?? e.transactionId })}>
              {t('issuing.area.openEmail')}
            </button>
          )}
          {allowed.chooseFolder && (
            <button type="button" onClick={() => actions.chooseFolder()} aria-label={t('issuing.area.chooseFolderOf', { invNo: e.invNo ?? e.transactionId })}>
              {t('issuing.followUp.chooseFolder')}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
});

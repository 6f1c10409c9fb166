import { memo, useMemo, useSyncExternalStore } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { EMAIL_STATES, type EmailEntry, type EmailState } from '../../../common/calls/emails';
import { INVOICE_KINDS, type InvoiceKind } from '../../../common/model';
import { formatCount, formatDateTime } from '../../../common/format';
import type { Lang } from '../app/error-text';
import { DataRow, VirtualRows, type RowPlace } from '../app/VirtualRows';
import { emailResult, resultWords, type ResultWords } from './result';
import { SLOT, withSlot } from '../i18n/slot';
import type { TablePages } from '../app/table-pages';
import type { EmailQueue, Selection, SortDir, SortKey } from './useEmailQueue';

const ROW_HEIGHT = 40;
/** The colour of each state's badge (queued and cancelled stay grey). */
const STATE_TONE: Partial<Record<EmailState, string>> = {
  sent: 'tone-ok',
  requested: 'tone-ok',
  sendingAtService: 'tone-ok',
  failed: 'tone-error',
  unknown: 'tone-warning',
  sending: 'tone-info',
};
const SORTABLE_COLUMNS = ['transactionId', 'receiverName', 'receiverEmail', 'kind', 'state'] as const;

interface TableProps {
  /** The query's rows (read page by page), the whole queue's count and the selection (useEmailQueue). */
  queue: Pick<EmailQueue, 'total' | 'queueTotal' | 'rowAt' | 'pages' | 'queryKey' | 'showRows' | 'selected' | 'toggle' | 'selectAll'>;
  lang: Lang;
  sort: SortKey;
  dir: SortDir;
  onSort: (key: SortKey) => void;
}

/** The queue as an ARIA table: sortable headers, a select-all box, and the virtualised rows. */
export function EmailTable({ queue, lang, sort, dir, onSort }: TableProps) {
  const { total: count, selected } = queue;
  const { t } = useTranslation();
  const allSelected = count > 0 && selected.size >= count;
  const ariaSort = (key: SortKey) => (sort === key ? (dir === 'asc' ? 'ascending' : 'descending') : 'none');
  const arrow = (key: SortKey) => (sort === key ? (dir === 'asc' ? ' ▲' : ' ▼') : '');
  const header = (key: SortKey, withArrow = true) => (
    <span role="columnheader" key={key} aria-sort={ariaSort(key)} className={`col-${key}`}>
      <button type="button" className="sort" onClick={() => onSort(key)}>
        {t(`emails.col.${key}`)}
        {withArrow ? arrow(key) : ''}
      </button>
    </span>
  );
  return (
    <div className="emails-table" role="table" aria-label={t('emails.table')} aria-rowcount={count + 1}>
      <div role="rowgroup">
        <div role="row" className="data-row data-head emails-row emails-head" aria-rowindex={1}>
          <span role="columnheader">
            <input type="checkbox" aria-label={t('emails.selectAll')} checked={allSelected} onChange={() => queue.selectAll(!allSelected, count)} />
          </span>
          {SORTABLE_COLUMNS.map((k) => header(k))}
          <span role="columnheader">{t('emails.col.result')}</span>
          {header('attempts', false)}
          {header('updatedAt')}
        </div>
      </div>
      <Body
        count={count}
        rowAt={queue.rowAt}
        pages={queue.pages}
        queryKey={queue.queryKey}
        onRows={queue.showRows}
        selected={selected}
        lang={lang}
        onToggle={queue.toggle}
      />
      <p className="emails-total">{t('emails.total', { shown: formatCount(count, lang), total: formatCount(queue.queueTotal, lang) })}</p>
    </div>
  );
}

/**
 * The scrolling body: virtualised rows; a row whose page is still being read is an empty placeholder
 * of the same height. A page arriving re-renders this body only.
 */
interface BodyProps {
  count: number;
  rowAt: (index: number) => EmailEntry | undefined;
  pages: TablePages<EmailEntry>;
  queryKey: string;
  onRows: (from: number, to: number) => void;
  selected: Selection;
  lang: Lang;
  onToggle: (id: number, index: number, range: boolean) => void;
}

/** The words every row repeats, looked up once per language rather than in each row. */
interface RowLabels {
  kinds: Record<InvoiceKind, string>;
  states: Record<EmailState, string>;
  selectRow: (tx: string) => string;
  result: ResultWords;
}

function rowLabels(t: TFunction): RowLabels {
  return {
    kinds: Object.fromEntries(INVOICE_KINDS.map((k) => [k, t(`emails.kinds.${k}`)])) as RowLabels['kinds'],
    states: Object.fromEntries(EMAIL_STATES.map((s) => [s, t(`emails.states.${s}`)])) as RowLabels['states'],
    selectRow: withSlot(t('emails.selectRow', { tx: SLOT })),
    result: resultWords(t),
  };
}

const Body = memo(function Body({ count, rowAt, pages, queryKey, onRows, selected, lang, onToggle }: BodyProps) {
  const { t } = useTranslation();
  const labels = useMemo(() => rowLabels(t), [t]);
  useSyncExternalStore(pages.subscribe, pages.getVersion);
  return (
    <VirtualRows
      count={count}
      rowHeight={ROW_HEIGHT}
      className="emails-scroll"
      testId="email-scroll"
      empty={<p className="emails-empty">{t('emails.empty')}</p>}
      resetKey={queryKey}
      onRange={onRows}
      row={(place) => {
        const e = rowAt(place.index);
        if (!e) return <DataRow key={`at-${place.index}`} place={place} aria-busy="true" className="emails-row is-loading" />;
        return <Row key={e.id} entry={e} {...place} selected={selected.has(e.id)} lang={lang} labels={labels} onToggle={onToggle} />;
      }}
    />
  );
});

interface RowProps extends RowPlace {
  entry: EmailEntry;
  selected: boolean;
  lang: Lang;
  /** The body's words, looked up once per language: a row mounted while scrolling translates nothing. */
  labels: RowLabels;
  onToggle: (id: number, index: number, range: boolean) => void;
}

/** One table row; memoised so scrolling re-renders only the rows that enter the window. */
const Row = memo(function Row({ entry: e, index, start, height, selected, focusable, lang, labels, onToggle, onFocusRow }: RowProps) {
  const result = emailResult(e, lang, labels.result);
  return (
    <DataRow place={{ index, start, height }} selected={selected} data-state={e.state} data-tx={e.transactionId} className={`emails-row state-${e.state}`}>
      <span role="cell">
        <input
          type="checkbox"
          aria-label={labels.selectRow(e.transactionId)}
          checked={selected}
          tabIndex={focusable ? 0 : -1}
          onFocus={() => onFocusRow(index)}
          onClick={(ev) => onToggle(e.id, index, ev.shiftKey)}
          onChange={() => {}}
        />
      </span>
      <span role="cell" className="mono" title={`${e.transactionId} · ${labels.kinds[e.kind]}`}>
        {e.transactionId}
      </span>
      <span role="cell" data-col="name" title={e.receiverName}>
        {e.receiverName}
      </span>
      <span role="cell" title={[e.receiverEmail, e.ccEmail && `CC ${e.ccEmail}`, e.bccEmail && `BCC ${e.bccEmail}`].filter(Boolean).join(' · ')}>
        {e.receiverEmail}
      </span>
      <span role="cell" className="col-kind">
        {labels.kinds[e.kind]}
      </span>
      <span role="cell">
        <span className={`badge badge-${e.state} ${STATE_TONE[e.state] ?? ''}`}>{labels.states[e.state]}</span>
      </span>
      <span role="cell" data-col="result" title={result.code ? `${result.text} (${result.code})` : result.text}>
        {result.text}
        {result.code && <span className="code"> {result.code}</span>}
      </span>
      <span role="cell" data-col="attempts">
        {e.attempts}
      </span>
      <span role="cell">{formatDateTime(e.updatedAt, lang)}</span>
    </DataRow>
  );
});

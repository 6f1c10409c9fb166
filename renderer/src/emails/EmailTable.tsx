import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailEntry } from '../../../common/calls/emails';
import { formatCount, formatDateTime } from '../../../common/format';
import type { Lang } from '../app/error-text';
import { emailResult } from './result';
import type { Selection, SortDir, SortKey } from './useEmailQueue';

const ROW_HEIGHT = 40;
const SORTABLE_COLUMNS = ['transactionId', 'receiverName', 'receiverEmail', 'kind', 'state'] as const;

interface TableProps {
  /** Rows of the query (the rows themselves are read page by page: `rowAt`). */
  count: number;
  /** Entries in the whole queue. */
  total: number;
  rowAt: (index: number) => EmailEntry | undefined;
  /** Changes with the query: the table goes back to the top. */
  queryKey: string;
  onRows: (from: number, to: number) => void;
  selected: Selection;
  lang: Lang;
  sort: SortKey;
  dir: SortDir;
  onSort: (key: SortKey) => void;
  onToggle: (id: number, index: number, range: boolean) => void;
  onSelectAll: (all: boolean) => void;
}

/** The queue as an ARIA table: sortable headers, a select-all box, and the virtualised rows. */
export function EmailTable({ count, total, rowAt, queryKey, onRows, selected, lang, sort, dir, onSort, onToggle, onSelectAll }: TableProps) {
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
        <div role="row" className="emails-row emails-head" aria-rowindex={1}>
          <span role="columnheader">
            <input type="checkbox" aria-label={t('emails.selectAll')} checked={allSelected} onChange={() => onSelectAll(!allSelected)} />
          </span>
          {SORTABLE_COLUMNS.map((k) => header(k))}
          <span role="columnheader">{t('emails.col.result')}</span>
          {header('attempts', false)}
          {header('updatedAt')}
        </div>
      </div>
      <VirtualRows count={count} rowAt={rowAt} queryKey={queryKey} onRows={onRows} selected={selected} lang={lang} onToggle={onToggle} />
      <p className="emails-total">{t('emails.total', { shown: formatCount(count, lang), total: formatCount(total, lang) })}</p>
    </div>
  );
}

interface VirtualRowsProps {
  count: number;
  rowAt: (index: number) => EmailEntry | undefined;
  queryKey: string;
  onRows: (from: number, to: number) => void;
  selected: Selection;
  lang: Lang;
  onToggle: (id: number, index: number, range: boolean) => void;
}

/** The scrolling body of the table: virtualised (only the visible rows exist), arrow keys move between rows. */
const VirtualRows = memo(function VirtualRows({ count, rowAt, queryKey, onRows, selected, lang, onToggle }: VirtualRowsProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const shown = virtualizer.getVirtualItems();
  const from = shown[0]?.index ?? 0;
  const to = shown[shown.length - 1]?.index ?? 0;
  useEffect(() => onRows(from, to), [from, to, onRows]);
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    setActive(0);
  }, [queryKey]);
  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(count - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLInputElement>(`[data-index="${i}"] input[type=checkbox]`)?.focus());
  };
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: count - 1,
    };
    const target = moves[e.key];
    if (target !== undefined && count > 0) {
      e.preventDefault();
      focusRow(target);
    }
  };
  return (
    <div ref={scrollRef} className="emails-scroll" role="rowgroup" onKeyDown={onGridKey} data-testid="email-scroll">
      {count === 0 ? (
        <p className="emails-empty">{t('emails.empty')}</p>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {shown.map((v) => {
            const e = rowAt(v.index);
            // A row whose page is still being read: an empty placeholder of the same height.
            if (!e)
              return (
                <div
                  key={`at-${v.index}`}
                  role="row"
                  aria-busy="true"
                  className="emails-row is-loading"
                  style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                />
              );
            return (
              <Row
                key={e.id}
                entry={e}
                index={v.index}
                start={v.start}
                selected={selected.has(e.id)}
                focusable={v.index === active}
                lang={lang}
                onToggle={onToggle}
                onFocusRow={setActive}
              />
            );
          })}
        </div>
      )}
    </div>
  );
});

interface RowProps {
  entry: EmailEntry;
  index: number;
  start: number;
  selected: boolean;
  focusable: boolean;
  lang: Lang;
  onToggle: (id: number, index: number, range: boolean) => void;
  onFocusRow: (index: number) => void;
}

/** One table row; memoised so scrolling re-renders only the rows that enter the window. */
const Row = memo(function Row({ entry: e, index, start, selected, focusable, lang, onToggle, onFocusRow }: RowProps) {
  const { t } = useTranslation();
  const result = emailResult(e, lang, t);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      data-state={e.state}
      data-tx={e.transactionId}
      className={`emails-row state-${e.state}${selected ? ' is-selected' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
    >
      <span role="cell">
        <input
          type="checkbox"
          aria-label={t('emails.selectRow', { tx: e.transactionId })}
          checked={selected}
          tabIndex={focusable ? 0 : -1}
          onFocus={() => onFocusRow(index)}
          onClick={(ev) => onToggle(e.id, index, ev.shiftKey)}
          onChange={() => {}}
        />
      </span>
      <span role="cell" className="mono" title={`${e.transactionId} · ${t(`emails.kinds.${e.kind}`)}`}>
        {e.transactionId}
      </span>
      <span role="cell" data-col="name" title={e.receiverName}>
        {e.receiverName}
      </span>
      <span role="cell" title={[e.receiverEmail, e.ccEmail && `CC ${e.ccEmail}`, e.bccEmail && `BCC ${e.bccEmail}`].filter(Boolean).join(' · ')}>
        {e.receiverEmail}
      </span>
      <span role="cell" className="col-kind">
        {t(`emails.kinds.${e.kind}`)}
      </span>
      <span role="cell">
        <span className={`badge badge-${e.state}`}>{t(`emails.states.${e.state}`)}</span>
      </span>
      <span role="cell" data-col="result" title={result.code ? `${result.text} (${result.code})` : result.text}>
        {result.text}
        {result.code && <span className="code"> {result.code}</span>}
      </span>
      <span role="cell" data-col="attempts">
        {e.attempts}
      </span>
      <span role="cell">{formatDateTime(e.updatedAt, lang)}</span>
    </div>
  );
});

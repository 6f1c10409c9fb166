import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice } from '../../../common/calls/register';
import { formatCount } from '../../../common/format';
import { pick } from '../../../common/model';
import { correctionsAllowed, dayText, invoiceName, issuedStatus } from '../../../common/rules/issued-register';
import type { Lang } from '../app/error-text';
import { formatTotal } from '../issuing/words';
import { LinkedInvoice } from './LinkedInvoice';

const ROW_HEIGHT = 44;

export type RowAction = 'view' | 'adjust' | 'replace' | 'goTo';

interface TableProps {
  total: number | null;
  version: number;
  row: (index: number) => IssuedInvoice | undefined;
  ensure: (first: number, last: number) => void;
  selected: ReadonlySet<string>;
  allSelected: boolean;
  lang: Lang;
  /** Without actions: the chooser of other screens. */
  actions: boolean;
  onToggle: (index: number, range: boolean) => void;
  onSelectAll: () => void;
  onAction?: (action: RowAction, inv: IssuedInvoice, target?: string) => void;
}

/** The register as an ARIA table; only the rows in view exist, and only their pages are fetched. */
export function IssuedTable(props: TableProps) {
  const { t } = useTranslation();
  const { total, lang, actions } = props;
  return (
    <div className={`issued-table${actions ? '' : ' issued-table-pick'}`}>
      <div role="table" aria-label={t('issued.table')} aria-rowcount={(total ?? 0) + 1}>
        <div role="rowgroup">
          <div role="row" className="issued-row issued-head" aria-rowindex={1}>
            <span role="columnheader">
              <input type="checkbox" aria-label={t('issued.selectAll')} checked={props.allSelected} disabled={!total} onChange={props.onSelectAll} />
            </span>
            <span role="columnheader">{t('issued.col.date')}</span>
            <span role="columnheader">{t('issued.col.series')}</span>
            <span role="columnheader">{t('issued.col.number')}</span>
            <span role="columnheader">{t('issued.col.buyer')}</span>
            <span role="columnheader" className="num">
              {t('issued.col.total')}
            </span>
            <span role="columnheader">{t('issued.col.status')}</span>
            {actions && <span role="columnheader">{t('issued.col.actions')}</span>}
          </div>
        </div>
        <VirtualRows {...props} />
      </div>
      <p className="issued-total" aria-live="polite">
        {total === null ? t('issued.loading') : t('issued.count', { total: formatCount(total, lang) })}
      </p>
    </div>
  );
}

function VirtualRows({ total, version, row, ensure, selected, lang, actions, onToggle, onAction }: TableProps) {
  const { t } = useTranslation();
  const count = total ?? 0;
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (count > 0) ensure(first, last);
  }, [first, last, count, ensure]);

  const focusRow = (index: number, extend: boolean) => {
    const i = Math.max(0, Math.min(count - 1, index));
    setActive(i);
    if (extend) onToggle(i, true);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLInputElement>(`[data-index="${i}"] input[type=checkbox]`)?.focus());
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target instanceof HTMLInputElement) || e.target.type !== 'checkbox') return;
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
      focusRow(target, e.shiftKey);
    }
  };
  return (
    <div ref={scrollRef} className="issued-scroll" role="rowgroup" onKeyDown={onKey} data-testid="issued-scroll">
      {total === 0 ? (
        <p className="issued-empty">{t('issued.empty')}</p>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const inv = row(v.index);
            return (
              <Row
                key={inv?.transactionId ?? `i${v.index}`}
                inv={inv}
                index={v.index}
                start={v.start}
                version={inv ? 0 : version}
                selected={inv ? selected.has(inv.transactionId) : false}
                focusable={v.index === active}
                lang={lang}
                actions={actions}
                onToggle={onToggle}
                onFocusRow={setActive}
                onAction={onAction}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}

interface RowProps {
  inv: IssuedInvoice | undefined;
  index: number;
  start: number;
  version: number;
  selected: boolean;
  focusable: boolean;
  lang: Lang;
  actions: boolean;
  onToggle: (index: number, range: boolean) => void;
  onFocusRow: (index: number) => void;
  onAction: TableProps['onAction'];
}

const Row = memo(function Row({ inv, index, start, selected, focusable, lang, actions, onToggle, onFocusRow, onAction }: RowProps) {
  const { t } = useTranslation();
  const style = { transform: `translateY(${start}px)`, height: ROW_HEIGHT };
  if (!inv) {
    return (
      <div role="row" aria-rowindex={index + 2} className="issued-row issued-loading" style={style} data-index={index}>
        <span role="cell" />
        <span role="cell">…</span>
      </div>
    );
  }
  const name = invoiceName(inv);
  const status = issuedStatus(inv);
  const words = status.words.map((w) => pick(w, lang)).join(' · ');
  const allowed = correctionsAllowed(inv);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      data-tx={inv.transactionId}
      className={`issued-row${selected ? ' is-selected' : ''} tax-${status.tax}`}
      style={style}
    >
      <span role="cell">
        <input
          type="checkbox"
          aria-label={t('issued.selectRow', { name })}
          checked={selected}
          tabIndex={focusable ? 0 : -1}
          onFocus={() => onFocusRow(index)}
          onClick={(ev) => onToggle(index, ev.shiftKey)}
          onChange={() => {}}
        />
      </span>
      <span role="cell">{dayText(inv.invDate)}</span>
      <span role="cell" className="mono">
        {inv.invSeries}
      </span>
      <span role="cell" className="mono">
        {inv.invNo}
      </span>
      <span role="cell" className="issued-buyer" title={[inv.buyerName, inv.buyerTaxCode, inv.buyerEmail].filter(Boolean).join(' · ')}>
        {inv.buyerName || '—'}
        {inv.buyerTaxCode && <small> {inv.buyerTaxCode}</small>}
      </span>
      <span role="cell" className="num">
        {formatTotal(inv.total, inv.currency)}
      </span>
      <span role="cell" className="issued-status" data-col="status" title={words}>
        <span className={`badge badge-tax-${status.tax}`}>{words}</span>
        {actions && <LinkedInvoice inv={inv} lang={lang} onGo={(target) => onAction?.('goTo', inv, target)} />}
      </span>
      {actions && (
        <span role="cell" className="issued-actions">
          <button type="button" aria-label={t('issued.viewRow', { name })} onClick={() => onAction?.('view', inv)}>
            {t('issued.view')}
          </button>
          <button type="button" aria-label={t('issued.adjustRow', { name })} disabled={!allowed.adjust} onClick={() => onAction?.('adjust', inv)}>
            {t('issued.adjust')}
          </button>
          <button type="button" aria-label={t('issued.replaceRow', { name })} disabled={!allowed.replace} onClick={() => onAction?.('replace', inv)}>
            {t('issued.replace')}
          </button>
        </span>
      )}
    </div>
  );
});

import { memo, useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice } from '../../../common/calls/register';
import { formatCount } from '../../../common/format';
import { pick } from '../../../common/model';
import { correctionsAllowed, dayText, invoiceName, issuedStatus } from '../../../common/rules/issued-register';
import type { Lang } from '../app/error-text';
import { DataRow, VirtualRows, type RowPlace } from '../app/VirtualRows';
import { SLOT, withSlot } from '../i18n/slot';
import { formatTotal } from '../issuing/words';
import { LinkedInvoice } from './LinkedInvoice';
import type { RegisterScreen } from './useRegisterScreen';

const ROW_HEIGHT = 44;

export type RowAction = 'view' | 'adjust' | 'replace' | 'goTo';

interface TableProps {
  /** The rows of the filter and the chosen ones (useRegisterScreen). */
  screen: Pick<RegisterScreen, 'pages' | 'selection' | 'selectAll' | 'dateError'>;
  lang: Lang;
  /** Without actions: the chooser of other screens. */
  actions: boolean;
  /** Says why "select all" took nothing (too many). */
  onWarn: (text: string) => void;
  onAction?: (action: RowAction, inv: IssuedInvoice, target?: string) => void;
}

/** The register as an ARIA table; only the rows in view exist, and only their pages are fetched. */
export function IssuedTable(props: TableProps) {
  const { t } = useTranslation();
  const { screen, lang, actions } = props;
  const total = screen.pages.total;
  return (
    <div className={`issued-table${actions ? '' : ' issued-table-pick'}`}>
      <div role="table" aria-label={t('issued.table')} aria-rowcount={(total ?? 0) + 1}>
        <div role="rowgroup">
          <div role="row" className="data-row data-head issued-row issued-head" aria-rowindex={1}>
            <span role="columnheader">
              <input
                type="checkbox"
                aria-label={t('issued.selectAll')}
                checked={screen.selection.allSelected}
                disabled={!total}
                onChange={() => screen.selectAll(props.onWarn)}
              />
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
        <Body {...props} />
      </div>
      <p className="issued-total" aria-live="polite">
        {screen.dateError ? t('issued.fixDates') : total === null ? t('issued.loading') : t('issued.count', { total: formatCount(total, lang) })}
      </p>
    </div>
  );
}

/** The words every row repeats, looked up once per language rather than in each row. */
interface RowLabels {
  selectRow: (name: string) => string;
  viewRow: (name: string) => string;
  adjustRow: (name: string) => string;
  replaceRow: (name: string) => string;
  view: string;
  adjust: string;
  replace: string;
}

function rowLabels(t: TFunction): RowLabels {
  return {
    selectRow: withSlot(t('issued.selectRow', { name: SLOT })),
    viewRow: withSlot(t('issued.viewRow', { name: SLOT })),
    adjustRow: withSlot(t('issued.adjustRow', { name: SLOT })),
    replaceRow: withSlot(t('issued.replaceRow', { name: SLOT })),
    view: t('issued.view'),
    adjust: t('issued.adjust'),
    replace: t('issued.replace'),
  };
}

function Body({ screen, lang, actions, onAction }: TableProps) {
  const { t } = useTranslation();
  const labels = useMemo(() => rowLabels(t), [t]);
  const { total, version, row, ensure } = screen.pages;
  const { ids: selected, toggle: onToggle } = screen.selection;
  return (
    <VirtualRows
      count={total ?? 0}
      rowHeight={ROW_HEIGHT}
      className="issued-scroll"
      testId="issued-scroll"
      empty={total === 0 ? <p className="issued-empty">{t('issued.empty')}</p> : null}
      onRange={ensure}
      onMove={(index, shift) => shift && onToggle(index, true)}
      row={(place) => {
        const inv = row(place.index);
        return (
          <Row
            key={inv?.transactionId ?? `i${place.index}`}
            inv={inv}
            {...place}
            version={inv ? 0 : version}
            selected={inv ? selected.has(inv.transactionId) : false}
            lang={lang}
            labels={labels}
            actions={actions}
            onToggle={onToggle}
            onAction={onAction}
          />
        );
      }}
    />
  );
}

interface RowProps extends RowPlace {
  inv: IssuedInvoice | undefined;
  version: number;
  selected: boolean;
  lang: Lang;
  /** The body's words, looked up once per language: a row mounted while scrolling translates nothing. */
  labels: RowLabels;
  actions: boolean;
  onToggle: (index: number, range: boolean) => void;
  onAction: TableProps['onAction'];
}

const Row = memo(function Row({ inv, index, start, height, selected, focusable, lang, labels, actions, onToggle, onFocusRow, onAction }: RowProps) {
  const place = { index, start, height };
  if (!inv) {
    return (
      <DataRow place={place} className="issued-row issued-loading">
        <span role="cell" />
        <span role="cell">…</span>
      </DataRow>
    );
  }
  const name = invoiceName(inv);
  const status = issuedStatus(inv);
  const words = status.words.map((w) => pick(w, lang)).join(' · ');
  const total = formatTotal(inv.total, inv.currency);
  const allowed = correctionsAllowed(inv);
  return (
    <DataRow place={place} selected={selected} data-tx={inv.transactionId} className={`issued-row tax-${status.tax}`}>
      <span role="cell">
        <input
          type="checkbox"
          aria-label={labels.selectRow(name)}
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
      <span role="cell" className="num" title={total}>
        {total}
      </span>
      <span role="cell" className="issued-status" data-col="status" title={words}>
        <span className={`badge badge-tax-${status.tax}`}>{words}</span>
        {actions && <LinkedInvoice inv={inv} lang={lang} onGo={(target) => onAction?.('goTo', inv, target)} />}
      </span>
      {actions && (
        <span role="cell" className="issued-actions">
          <button type="button" aria-label={labels.viewRow(name)} onClick={() => onAction?.('view', inv)}>
            {labels.view}
          </button>
          <button type="button" aria-label={labels.adjustRow(name)} disabled={!allowed.adjust} onClick={() => onAction?.('adjust', inv)}>
            {labels.adjust}
          </button>
          <button type="button" aria-label={labels.replaceRow(name)} disabled={!allowed.replace} onClick={() => onAction?.('replace', inv)}>
            {labels.replace}
          </button>
        </span>
      )}
    </DataRow>
  );
});

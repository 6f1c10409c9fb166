import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueItem } from '../../../../common/calls/catalogues';
import { ITEM_TYPES, type ItemType } from '../../../../common/model/invoice';
import { Autocomplete } from './Autocomplete';
import { formatAmount } from './format';
import { allowsDiscount, hasAmounts } from './kinds';
import { normaliseVatLabel, type ComputedLine, type DraftLine } from './money';
import { searchItems } from './search';
import { useEditor, type LineField } from './store';

/** Brings line `i` into the DOM (set while a grid is mounted); used to focus a line by path. */
export let scrollToLine: ((i: number) => void) | undefined;

export const VAT_CHOICES = ['0%', '5%', '8%', '10%', 'KCT', 'KKKNT'] as const;

interface RowProps {
  index: number;
  line: DraftLine;
  computed: ComputedLine | undefined;
  decimals: number;
  /** JSON of {field: message}: a string so the row's memo compares by value. */
  problems: string;
  /** The virtualizer measures each rendered row. */
  measure?: Ref<HTMLTableRowElement>;
}

const Row = memo(function Row({ index, line, computed, decimals, problems, measure }: RowProps) {
  const { t } = useTranslation();
  const setLine = useEditor((s) => s.setLine);
  const setLineType = useEditor((s) => s.setLineType);
  const focus = useEditor((s) => s.focus);
  const n = index + 1;
  const issues = problems ? (JSON.parse(problems) as Record<string, string>) : {};
  const amounts = hasAmounts(line.ItemType);
  const discount = allowsDiscount(line.ItemType);
  const cell = (field: string) => ({
    'data-cell': true,
    'data-row': index,
    'data-path': `lines[${index}].${field}`,
    'aria-invalid': issues[field] ? true : undefined,
    'aria-describedby': issues[field] ? `err-l${index}-${field}` : undefined,
  });
  const err = (field: string) =>
    issues[field] ? (
      <span className="cell-error" id={`err-l${index}-${field}`}>
        {issues[field]}
      </span>
    ) : null;
  const text = (field: LineField, label: string, opts: { numeric?: boolean; disabled?: boolean } = {}) => (
    <td className={opts.numeric ? 'num' : undefined}>
      <input
        {...cell(field)}
        aria-label={t('drafts.grid.cellLabel', { column: label, line: n })}
        inputMode={opts.numeric ? 'decimal' : undefined}
        value={opts.disabled ? '' : line[field]}
        disabled={opts.disabled}
        onChange={(e) => setLine(index, field === 'DiscountRate' ? { DiscountRate: e.target.value, discountBy: 'rate' } : { [field]: e.target.value })}
        onBlur={
          field === 'VATRateName'
            ? (e) => {
                const raw = e.target.value.trim();
                const fixed = normaliseVatLabel(/^\d+(\.\d+)?$/.test(raw) ? `${raw}%` : raw);
                if (fixed && fixed !== line.VATRateName) setLine(index, { VATRateName: fixed });
              }
            : undefined
        }
        list={field === 'VATRateName' ? 'vat-choices' : undefined}
      />
      {err(field)}
    </td>
  );
  const pickItem = (item: CatalogueItem) => {
    setLine(index, {
      ItemCode: item.code,
      ItemName: item.name,
      UnitName: item.unit,
      UnitPrice: item.price,
      ...(item.vatRate && line.ItemType !== 4 ? { VATRateName: item.vatRate } : {}),
    });
    focus(line.ItemType === 4 ? null : `lines[${index}].Quantity`);
  };
  const itemAc = (field: 'ItemCode' | 'ItemName', label: string) => (
    <td className={field === 'ItemName' ? 'wide' : undefined}>
      <Autocomplete<CatalogueItem>
        {...cell(field)}
        aria-label={t('drafts.grid.cellLabel', { column: label, line: n })}
        value={line[field]}
        onChange={(v) => setLine(index, { [field]: v })}
        search={searchItems}
        onPick={pickItem}
        listLabel={t('drafts.grid.itemSuggestions')}
      />
      {err(field)}
    </td>
  );
  return (
    <tr className={`line line-type-${line.ItemType}`} data-line={index} data-index={index} ref={measure}>
      <th scope="row" className="line-no">
        {n}
      </th>
      <td>
        <select
          {...cell('ItemType')}
          aria-label={t('drafts.grid.cellLabel', { column: t('drafts.grid.type'), line: n })}
          value={line.ItemType}
          onChange={(e) => setLineType(index, Number(e.target.value) as ItemType)}
        >
          {ITEM_TYPES.map((type) => (
            <option key={type} value={type}>
              {`${type} · ${t(`drafts.itemType.${type}`)}`}
            </option>
          ))}
        </select>
        {err('ItemType')}
      </td>
      {itemAc('ItemCode', t('drafts.grid.code'))}
      {itemAc('ItemName', t('drafts.grid.name'))}
      {text('UnitName', t('drafts.grid.unit'), { disabled: !amounts })}
      {text('Quantity', t('drafts.grid.quantity'), { numeric: true, disabled: !amounts })}
      {text('UnitPrice', t('drafts.grid.price'), { numeric: true, disabled: !amounts })}
      {text('DiscountRate', t('drafts.grid.discountRate'), { numeric: true, disabled: !discount })}
      {text('VATRateName', t('drafts.grid.vat'), { disabled: !amounts })}
      <td className="num amount" data-testid={`line-amount-${index}`}>
        {computed && amounts ? `${computed.sign < 0 ? '−' : ''}${formatAmount(computed.AmountWithoutVATOC, decimals)}` : ''}
      </td>
    </tr>
  );
});

/** Everything the grid's keyboard needs: move on, add a line, remove a line. */
export function LineGrid({
  lines,
  computed,
  decimals,
  problems,
}: {
  lines: DraftLine[];
  computed: ComputedLine[];
  decimals: number;
  problems: Map<number, string>;
}) {
  const { t } = useTranslation();
  const tableRef = useRef<HTMLTableElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  // Only the rows near the viewport are in the DOM: a keystroke in a 200-line draft then
  // lays out and paints about as much as one in a 5-line draft.
  // Where the rows start on the page: re-read after layout (ResizeObserver), never forcing one.
  useLayoutEffect(() => {
    const read = () => {
      const top = (bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setMargin((m) => (Math.abs(top - m) > 1 ? top : m));
    };
    read();
    const editor = tableRef.current?.closest('.editor') ?? document.body;
    const observer = new ResizeObserver(read);
    observer.observe(editor);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({ count: lines.length, estimateSize: () => 34, overscan: 10, scrollMargin: margin });
  useEffect(() => {
    scrollToLine = (i: number) => virtualizer.scrollToIndex(i, { align: 'auto' });
    return () => {
      scrollToLine = undefined;
    };
  }, [virtualizer]);
  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? Math.max(0, items[0]!.start - margin) : 0;
  const padBottom = items.length ? Math.max(0, virtualizer.getTotalSize() - (items[items.length - 1]!.end - margin)) : 0;
  const addLine = useEditor((s) => s.addLine);
  const removeLine = useEditor((s) => s.removeLine);
  const focus = useEditor((s) => s.focus);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTableElement>) => {
      const target = e.target as HTMLElement;
      const row = Number(target.dataset.row ?? NaN);
      if (Number.isNaN(row)) return;
      const field = (target.dataset.path ?? '').replace(/^lines\[\d+\]\./, '');
      if ((e.key === 'Enter' && e.ctrlKey) || (e.key === 'Insert' && !e.ctrlKey && !e.altKey)) {
        e.preventDefault();
        const at = addLine(row, e.shiftKey ? 4 : 1);
        focus(`lines[${at}].ItemType`);
        return;
      }
      if (e.key === 'Delete' && e.ctrlKey) {
        e.preventDefault();
        const count = useEditor.getState().draft?.lines.length ?? 0;
        removeLine(row);
        if (count > 1) focus(`lines[${Math.min(row, count - 2)}].${field || 'ItemType'}`);
        return;
      }
      if (e.key === 'Enter' && !e.altKey && !e.metaKey) {
        e.preventDefault();
        const cells = Array.from(tableRef.current?.querySelectorAll<HTMLElement>('[data-cell]:not(:disabled)') ?? []);
        const i = cells.indexOf(target);
        if (i < 0) return;
        if (e.shiftKey) {
          cells[i - 1]?.focus();
          return;
        }
        if (i === cells.length - 1) {
          const count = useEditor.getState().draft?.lines.length ?? 0;
          if (row < count - 1) {
            focus(`lines[${row + 1}].ItemType`); // the next row is outside the rendered window
            return;
          }
          const at = addLine(row);
          focus(`lines[${at}].ItemType`);
          return;
        }
        const next = cells[i + 1]!;
        next.focus();
        if (next instanceof HTMLInputElement) next.select();
      }
    },
    [addLine, removeLine, focus],
  );

  return (
    <div className="grid-wrap">
      <table className="line-grid" ref={tableRef} onKeyDown={onKeyDown} aria-label={t('drafts.grid.caption')}>
        <colgroup>
          {['no', 'type', 'code', 'name', 'unit', 'qty', 'price', 'disc', 'vat', 'amount'].map((c) => (
            <col key={c} className={`c-${c}`} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('drafts.grid.type')}</th>
            <th scope="col">{t('drafts.grid.code')}</th>
            <th scope="col">{t('drafts.grid.name')}</th>
            <th scope="col">{t('drafts.grid.unit')}</th>
            <th scope="col">{t('drafts.grid.quantity')}</th>
            <th scope="col">{t('drafts.grid.price')}</th>
            <th scope="col">{t('drafts.grid.discountRate')}</th>
            <th scope="col">{t('drafts.grid.vat')}</th>
            <th scope="col">{t('drafts.grid.amount')}</th>
          </tr>
        </thead>
        <tbody ref={bodyRef}>
          {padTop > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: padTop }}>
              <td colSpan={10} />
            </tr>
          )}
          {items.map(({ index: i }) => (
            <Row
              key={i}
              index={i}
              line={lines[i]!}
              computed={computed[i]}
              decimals={decimals}
              problems={problems.get(i) ?? ''}
              measure={virtualizer.measureElement}
            />
          ))}
          {padBottom > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: padBottom }}>
              <td colSpan={10} />
            </tr>
          )}
        </tbody>
      </table>
      <datalist id="vat-choices">
        {VAT_CHOICES.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <p className="hint">{t('drafts.grid.keys')}</p>
    </div>
  );
}

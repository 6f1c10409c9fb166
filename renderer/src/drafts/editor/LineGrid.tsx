import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useWords } from '../../i18n/useWords';
import { ItemType } from '../../../../common/model/invoice';
import { lineVatFix, vatChoicesOn } from '../../../../common/rules/vat-dates';
import { LineRow } from './LineRow';
import type { ComputedLine, DotStyle, DraftLine } from './money';
import { useEditor } from './store';

/** Brings line `i` into the DOM (set while a grid is mounted); used to focus a line by path. */
export let scrollToLine: ((i: number) => void) | undefined;

/** Where the cursor goes in a line the keyboard just added: its item name, never its type. */
export const newLineFocus = (i: number) => `lines[${i}].ItemName`;

/** The grid's own words (its column headers are GridHead's): it is drawn again on every keystroke. */
const GRID_WORDS = ['drafts.grid.caption', 'drafts.grid.keys'] as const;

const COLUMNS = (
  <colgroup>
    {['no', 'type', 'code', 'name', 'unit', 'qty', 'price', 'disc', 'vat', 'amount'].map((c) => (
      <col key={c} className={`c-${c}`} />
    ))}
  </colgroup>
);

/** Everything the grid's keyboard needs: move on, add a line, remove a line and put it back. */
export function LineGrid({
  lines,
  computed,
  decimals,
  moneyDot,
  problems,
}: {
  lines: DraftLine[];
  computed: ComputedLine[];
  decimals: number;
  moneyDot: DotStyle;
  problems: Map<number, string>;
}) {
  const w = useWords(GRID_WORDS);
  const tableRef = useRef<HTMLTableElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  const [below, setBelow] = useState(0);
  // Only the rows near the viewport are in the DOM (3 more each way: each row in the DOM is
  // painted again on every keystroke): a keystroke in a 1 000-line draft then lays out and
  // paints about as much as one in a 5-line draft.
  // Where the rows start on the page, and how much of the page follows them (the totals): re-read
  // after layout (ResizeObserver), never forcing one. Without the second, a window scrolled to the
  // end would be taken as a full screen of rows, and twice the rows in view would be drawn.
  useLayoutEffect(() => {
    const read = () => {
      const top = (headRef.current?.getBoundingClientRect().bottom ?? 0) + window.scrollY;
      const bottom = (tableRef.current?.getBoundingClientRect().bottom ?? 0) + window.scrollY;
      const after = Math.max(0, document.documentElement.scrollHeight - bottom);
      setMargin((m) => (Math.abs(top - m) > 1 ? top : m));
      setBelow((b) => (Math.abs(after - b) > 1 ? after : b));
    };
    read();
    const editor = tableRef.current?.closest('.editor') ?? document.body;
    const observer = new ResizeObserver(read);
    observer.observe(editor);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({ count: lines.length, estimateSize: () => 34, overscan: 3, scrollMargin: margin, paddingEnd: below });
  useEffect(() => {
    scrollToLine = (i: number) => virtualizer.scrollToIndex(i, { align: 'auto' });
    return () => {
      scrollToLine = undefined;
    };
  }, [virtualizer]);
  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? Math.max(0, items[0]!.start - margin) : 0;
  const padBottom = items.length ? Math.max(0, virtualizer.getTotalSize() - below - (items[items.length - 1]!.end - margin)) : 0;
  const addLine = useEditor((s) => s.addLine);
  const removeLine = useEditor((s) => s.removeLine);
  const restoreRemovedLine = useEditor((s) => s.restoreRemovedLine);
  const focus = useEditor((s) => s.focus);
  // Rates move with the calendar: offer those valid on the invoice date, and the fix for one that is not.
  const invDate = useEditor((s) => s.draft?.InvDate ?? '');
  // What stays the same while typing is built once: React then leaves it alone on a keystroke.
  const around = useMemo(
    () => (
      <>
        <datalist id="vat-choices">
          {vatChoicesOn(invDate).map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
        <p className="hint">{w['drafts.grid.keys']}</p>
      </>
    ),
    [invDate, w],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTableElement>) => {
      const target = e.target as HTMLElement;
      const row = Number(target.dataset.row ?? NaN);
      if (Number.isNaN(row)) return;
      const field = (target.dataset.path ?? '').replace(/^lines\[\d+\]\./, '');
      if ((e.key === 'Enter' && e.ctrlKey) || (e.key === 'Insert' && !e.ctrlKey && !e.altKey)) {
        e.preventDefault();
        const at = addLine(row, e.shiftKey ? ItemType.Note : ItemType.Goods);
        focus(newLineFocus(at));
        return;
      }
      if (e.code === 'KeyZ' && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey) {
        const at = restoreRemovedLine();
        if (at === null) return; // the field's own undo
        e.preventDefault();
        focus(`lines[${at}].${field || 'ItemName'}`);
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
          focus(newLineFocus(at));
          return;
        }
        const next = cells[i + 1]!;
        next.focus();
        if (next instanceof HTMLInputElement) next.select();
      }
    },
    [addLine, removeLine, restoreRemovedLine, focus],
  );

  return (
    <div className="grid-wrap">
      <table className="line-grid" ref={tableRef} onKeyDown={onKeyDown} aria-label={w['drafts.grid.caption']}>
        {COLUMNS}
        <GridHead headRef={headRef} />
        {/* Each line is its own <tbody> (the line and, under it, its problems), measured as one. */}
        <Spacer height={padTop} />
        {items.map(({ index: i }) => (
          <LineRow
            key={i}
            index={i}
            line={lines[i]!}
            computed={computed[i]}
            decimals={decimals}
            moneyDot={moneyDot}
            problems={problems.get(i) ?? ''}
            // The fix is shown only beside a line's problems: judged for those lines alone.
            vatFix={problems.has(i) ? lineVatFix(lines[i]!, invDate) : null}
            measure={virtualizer.measureElement}
          />
        ))}
        <Spacer height={padBottom} />
      </table>
      {around}
    </div>
  );
}

/** The column headers: the same on every keystroke, so rendered once per language. */
const GridHead = memo(function GridHead({ headRef }: { headRef: Ref<HTMLTableSectionElement> }) {
  const { t } = useTranslation();
  return (
    <thead ref={headRef}>
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
  );
});

/** The room of the lines the virtual grid does not render, above or below the ones it does. */
function Spacer({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tbody aria-hidden="true">
      <tr className="spacer" style={{ height }}>
        <td colSpan={10} />
      </tr>
    </tbody>
  );
}

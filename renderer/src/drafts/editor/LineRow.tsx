import { memo, useMemo, type FocusEvent, type Ref } from 'react';
import type { TFunction } from 'i18next';
import { useT } from '../../i18n/useWords';
import type { CatalogueItem } from '../../../../common/calls/catalogues';
import { ITEM_TYPES, ItemType } from '../../../../common/model/invoice';
import { Autocomplete } from './Autocomplete';
import { Fig } from './Fig';
import { formatAmount } from './format';
import { normaliseVatLabel, showsAmounts, showsDiscount, withCatalogueItem, type ComputedLine, type DotStyle, type DraftLine } from './money';
import { NumberInput } from './NumberInput';
import { searchItems } from './search';
import { useEditor } from './store';

const COLUMNS = {
  type: 'drafts.grid.type',
  code: 'drafts.grid.code',
  name: 'drafts.grid.name',
  unit: 'drafts.grid.unit',
  quantity: 'drafts.grid.quantity',
  price: 'drafts.grid.price',
  discountRate: 'drafts.grid.discountRate',
  vat: 'drafts.grid.vat',
} as const;
type RowLabels = Record<keyof typeof COLUMNS, string>;

/** A line's cell names ("Số lượng, dòng 3") and the line types: worked out once per line number and language, not per keystroke. */
function rowLabels(t: TFunction, line: number): RowLabels & { itemTypes: Array<[ItemType, string]>; suggestions: string } {
  const labels = Object.fromEntries(Object.entries(COLUMNS).map(([k, key]) => [k, t('drafts.grid.cellLabel', { column: t(key), line })])) as RowLabels;
  return {
    ...labels,
    itemTypes: ITEM_TYPES.map((type) => [type, `${type} · ${t(`drafts.itemType.${type}`)}`]),
    suggestions: t('drafts.grid.itemSuggestions'),
  };
}

/** What every cell of a line carries: where it is (the grid's keys and the problem list find it by these) and whether it is wrong. */
function cellAttrs(index: number, field: string, invalid: boolean) {
  return {
    'data-cell': true,
    'data-row': index,
    'data-path': `lines[${index}].${field}`,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': invalid ? `err-l${index}-${field}` : undefined,
  };
}

type SetLine = ReturnType<typeof useEditor.getState>['setLine'];

/** What a line's fields call, bound to the line's place. */
function lineHandlers(index: number, setLine: SetLine, focus: (path: string | null) => void) {
  return {
    Quantity: (stored: string) => setLine(index, { Quantity: stored }),
    UnitPrice: (stored: string) => setLine(index, { UnitPrice: stored }),
    DiscountRate: (stored: string) => setLine(index, { DiscountRate: stored, discountBy: 'rate' }),
    ItemCode: (v: string) => setLine(index, { ItemCode: v }),
    ItemName: (v: string) => setLine(index, { ItemName: v }),
    pickItem: (item: CatalogueItem) => {
      const line = useEditor.getState().draft?.lines[index];
      if (!line) return;
      setLine(index, withCatalogueItem(line, item));
      focus(line.ItemType === ItemType.Note ? null : `lines[${index}].Quantity`);
    },
  };
}

interface RowProps {
  index: number;
  line: DraftLine;
  computed: ComputedLine | undefined;
  decimals: number;
  /** How a `.` reads in this draft's money cells (VND: it only groups thousands). */
  moneyDot: DotStyle;
  /** JSON of {field: message}: a string so the row's memo compares by value. */
  problems: string;
  /** The rate valid on the invoice date when the line's is outside its window (`8%` → `10%`). */
  vatFix: string | null;
  /** The virtualizer measures each rendered line (its row and its problems). */
  measure?: Ref<HTMLTableSectionElement>;
}

export const LineRow = memo(function LineRow({ index, line, computed, decimals, moneyDot, problems, vatFix, measure }: RowProps) {
  const t = useT();
  // The store's actions never change: read, not subscribed to (a row subscribed is one more call on every keystroke).
  const { setLine, focus } = useEditor.getState();
  const n = index + 1;
  const issues = problems ? (JSON.parse(problems) as Record<string, string>) : {};
  const amounts = showsAmounts(line.ItemType);
  const discount = showsDiscount(line.ItemType);
  const labels = useMemo(() => rowLabels(t, n), [t, n]);
  const label = (column: keyof RowLabels) => labels[column];
  // The same handlers on every render of this line: a keystroke re-renders the field typed in, not its neighbours.
  const on = useMemo(() => lineHandlers(index, setLine, focus), [index, setLine, focus]);
  const cell = (field: string) => cellAttrs(index, field, Boolean(issues[field]));
  const messages = Object.entries(issues);
  const text = (field: 'UnitName' | 'VATRateName', column: keyof RowLabels, opts: { disabled?: boolean } = {}) => (
    <TextCell index={index} field={field} label={label(column)} value={line[field]} disabled={opts.disabled ?? false} invalid={Boolean(issues[field])} />
  );
  const number = (
    field: 'Quantity' | 'UnitPrice' | 'DiscountRate',
    column: keyof RowLabels,
    dot: DotStyle,
    opts: { disabled?: boolean; decimals?: number } = {},
  ) => (
    <td className="num">
      <NumberInput
        {...cell(field)}
        aria-label={label(column)}
        value={opts.disabled ? '' : line[field]}
        disabled={opts.disabled}
        dot={dot}
        decimals={opts.decimals}
        onValue={on[field]}
      />
    </td>
  );
  const itemAc = (field: 'ItemCode' | 'ItemName', column: keyof RowLabels) => (
    <td className={field === 'ItemName' ? 'wide' : undefined}>
      <Autocomplete<CatalogueItem>
        {...cell(field)}
        aria-label={label(column)}
        value={line[field]}
        onChange={on[field]}
        search={searchItems}
        onPick={on.pickItem}
        listLabel={labels.suggestions}
      />
    </td>
  );
  // Leaving a just-added line: from now on its problems show.
  const onRowBlur = (e: FocusEvent<HTMLTableRowElement>) => {
    const s = useEditor.getState();
    if (s.freshLine !== index) return;
    if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
    s.leaveFreshLine();
  };
  return (
    <tbody className="line-body" data-index={index} ref={measure}>
      <tr className={`line line-type-${line.ItemType}`} data-line={index} onBlur={onRowBlur}>
        <th scope="row" className="line-no">
          {n}
        </th>
        <TypeCell index={index} value={line.ItemType} label={label('type')} itemTypes={labels.itemTypes} invalid={Boolean(issues.ItemType)} />
        {itemAc('ItemCode', 'code')}
        {itemAc('ItemName', 'name')}
        {text('UnitName', 'unit', { disabled: !amounts })}
        {number('Quantity', 'quantity', 'either', { disabled: !amounts })}
        {number('UnitPrice', 'price', moneyDot, { disabled: !amounts })}
        {number('DiscountRate', 'discountRate', 'either', { disabled: !discount })}
        {text('VATRateName', 'vat', { disabled: !amounts })}
        <td className="num amount">
          <Fig
            fill
            testId={`line-amount-${index}`}
            text={computed && amounts ? `${computed.sign < 0 ? '−' : ''}${formatAmount(computed.AmountWithoutVATOC, decimals)}` : ''}
          />
        </td>
      </tr>
      {messages.length > 0 && (
        // The line's problems under it, full width, each tied to its cell (aria-describedby).
        <tr className="line-problems">
          <td />
          <td colSpan={9}>
            {messages.map(([field, message]) => (
              <span key={field} className="cell-error" id={`err-l${index}-${field}`}>
                {message}
                {field === 'VATRateName' && vatFix && (
                  <>
                    {' '}
                    <button
                      type="button"
                      className="link"
                      aria-label={t('drafts.grid.useVatOnLine', { rate: vatFix, line: n })}
                      onClick={() => setLine(index, { VATRateName: vatFix })}
                    >
                      {t('drafts.grid.useVat', { rate: vatFix })}
                    </button>
                  </>
                )}
              </span>
            ))}
          </td>
        </tr>
      )}
    </tbody>
  );
});

/** A line's plain text cell: its own component, so a keystroke elsewhere in the line leaves it alone. */
const TextCell = memo(function TextCell({
  index,
  field,
  label,
  value,
  disabled,
  invalid,
}: {
  index: number;
  field: 'UnitName' | 'VATRateName';
  label: string;
  value: string;
  disabled: boolean;
  invalid: boolean;
}) {
  const { setLine } = useEditor.getState();
  const vat = field === 'VATRateName';
  return (
    <td>
      <input
        {...cellAttrs(index, field, invalid)}
        aria-label={label}
        value={disabled ? '' : value}
        disabled={disabled}
        onChange={(e) => setLine(index, { [field]: e.target.value })}
        onBlur={
          vat
            ? (e) => {
                const fixed = normaliseVatLabel(e.target.value);
                if (fixed && fixed !== value) setLine(index, { VATRateName: fixed });
              }
            : undefined
        }
        list={vat ? 'vat-choices' : undefined}
      />
    </td>
  );
});

/** A line's type: its own component, like the text cells. */
const TypeCell = memo(function TypeCell({
  index,
  value,
  label,
  itemTypes,
  invalid,
}: {
  index: number;
  value: ItemType;
  label: string;
  itemTypes: Array<[ItemType, string]>;
  invalid: boolean;
}) {
  const { setLineType } = useEditor.getState();
  return (
    <td>
      <select
        {...cellAttrs(index, 'ItemType', invalid)}
        aria-label={label}
        value={value}
        onChange={(e) => setLineType(index, Number(e.target.value) as ItemType)}
      >
        {itemTypes.map(([type, name]) => (
          <option key={type} value={type}>
            {name}
          </option>
        ))}
      </select>
    </td>
  );
});

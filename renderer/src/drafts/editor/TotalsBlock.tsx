import { memo, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnHeaders } from '../../app/fields';
import { useWords } from '../../i18n/useWords';
import { Fig } from './Fig';
import { formatAmount } from './format';
import { dotStyleFor, type ComputedInvoice, type Decimal, type DotStyle } from './money';
import { NumberInput } from './NumberInput';
import { useEditor } from './store';

/** The block's fixed words: it is drawn again on every keystroke. */
const TOTALS_WORDS = [
  'drafts.totals.base',
  'drafts.totals.discount',
  'drafts.totals.editedVat',
  'drafts.totals.gross',
  'drafts.totals.override',
  'drafts.totals.rate',
  'drafts.totals.rateVat',
  'drafts.totals.taxRateInfo',
  'drafts.totals.title',
  'drafts.totals.total',
  'drafts.totals.vat',
  'drafts.totals.withoutVat',
  'drafts.totals.words',
  'drafts.totals.wordsAuto',
  'drafts.totals.wordsEdited',
] as const;

/**
 * The totals in invoice order: sale amount before discount, the discount, the amount after it,
 * VAT and the total payable; then TaxRateInfo (with the hand-typed VAT override) and the words.
 */
export function TotalsBlock({
  computed,
  vatOverrides,
  byPath,
}: {
  computed: ComputedInvoice;
  vatOverrides: Record<string, string>;
  byPath: Map<string, string>;
}) {
  const w = useWords(TOTALS_WORDS);
  // The same on every keystroke: built once, so React leaves it alone.
  const rateHead = useMemo(
    () => <ColumnHeaders columns={[w['drafts.totals.rate'], w['drafts.totals.base'], w['drafts.totals.rateVat'], w['drafts.totals.override']]} />,
    [w],
  );
  const decimals = computed.rule.decimals;
  const fmt = (v: Decimal) => formatAmount(v, decimals);
  const tot = computed.totals;
  const moneyDot = dotStyleFor('amount', computed.currency);
  return (
    <section className="block totals" aria-labelledby="h-totals">
      <h2 id="h-totals">{w['drafts.totals.title']}</h2>
      <dl>
        <Figure label={w['drafts.totals.gross']} testId="total-gross" value={fmt(tot.grossAmountOC)} />
        <Figure label={w['drafts.totals.discount']} testId="total-discount" value={fmt(tot.TotalDiscountAmountOC)} />
        <Figure label={w['drafts.totals.withoutVat']} testId="total-without-vat" value={fmt(tot.TotalAmountWithoutVATOC)} />
        <Figure label={w['drafts.totals.vat']} testId="total-vat" value={fmt(tot.TotalVATAmountOC)} />
        <Figure label={w['drafts.totals.total']} testId="total-amount" value={`${fmt(tot.TotalAmountOC)} ${computed.currency}`} grand />
      </dl>
      <table className="tax-rates" data-testid="tax-rate-info">
        <caption>{w['drafts.totals.taxRateInfo']}</caption>
        {rateHead}
        <tbody>
          {computed.taxRates.map((r, i) => (
            <RateRow
              key={r.VATRateName}
              index={i}
              rate={r.VATRateName}
              base={fmt(r.AmountWithoutVATOC)}
              vat={fmt(r.VATAmountOC)}
              editedNote={r.edited ? w['drafts.totals.editedVat'] : ''}
              override={vatOverrides[r.VATRateName] ?? ''}
              moneyDot={moneyDot}
              problem={r.overrideInvalid ? byPath.get(`taxRates[${i}].VATAmountOC`) : undefined}
            />
          ))}
        </tbody>
      </table>
      <WordsField computedWords={computed.words} invalid={Boolean(byPath.get('words'))} />
    </section>
  );
}

/** The amount in words: the app's own, or the cashier's (then marked, with a way back). */
const WordsField = memo(function WordsField({ computedWords, invalid }: { computedWords: string; invalid: boolean }) {
  const w = useWords(TOTALS_WORDS);
  const meta = useEditor((s) => s.meta);
  const setWords = useEditor((s) => s.setWords);
  const words = meta.wordsEdited ? meta.words : computedWords;
  return (
    <div className="field words">
      <label htmlFor="f-words">
        {w['drafts.totals.words']}{' '}
        {meta.wordsEdited && (
          <span className="badge-edited" data-testid="words-edited">
            {w['drafts.totals.wordsEdited']}
          </span>
        )}
      </label>
      <div className="words-box">
        <textarea
          id="f-words"
          data-path="words"
          data-testid="words"
          rows={3}
          value={words}
          aria-invalid={invalid || undefined}
          onChange={(e) => setWords(e.target.value)}
        />
      </div>
      {meta.wordsEdited && (
        <button type="button" onClick={() => setWords(null)}>
          {w['drafts.totals.wordsAuto']}
        </button>
      )}
      {meta.wordsEdited && meta.words.trim() !== computedWords && <WordsDiffer words={computedWords} />}
    </div>
  );
});

/** The cashier's words differ from the total's: the app's words, to compare. */
function WordsDiffer({ words }: { words: string }) {
  const { t } = useTranslation();
  return <span className="hint">{t('drafts.totals.wordsDiffer', { words })}</span>;
}

/** One of the totals: its label, and its figure in a box of its own. */
const Figure = memo(function Figure({ label, testId, value, grand = false }: { label: string; testId: string; value: string; grand?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={grand ? 'grand' : undefined}>
        <Fig testId={testId} text={value} />
      </dd>
    </>
  );
});

/** A rate's line of the VAT summary: drawn again only when its own figures change. */
const RateRow = memo(function RateRow({
  index,
  rate,
  base,
  vat,
  editedNote,
  override,
  moneyDot,
  problem,
}: {
  index: number;
  rate: string;
  base: string;
  vat: string;
  /** Said after the VAT when it was typed by hand. */
  editedNote: string;
  override: string;
  moneyDot: DotStyle;
  problem: string | undefined;
}) {
  return (
    <tr>
      <th scope="row">{rate}</th>
      <td className="num">
        <Fig text={base} />
      </td>
      <td className="num">
        <Fig text={vat} />
        {editedNote ? ` (${editedNote})` : ''}
      </td>
      <OverrideCell index={index} rate={rate} value={override} moneyDot={moneyDot} problem={problem} />
    </tr>
  );
});

/** A rate's hand-typed VAT: its own component, so a keystroke elsewhere leaves the field alone. */
const OverrideCell = memo(function OverrideCell({
  index,
  rate,
  value,
  moneyDot,
  problem,
}: {
  index: number;
  rate: string;
  value: string;
  moneyDot: DotStyle;
  /** Shown only when the typed VAT itself is refused. */
  problem: string | undefined;
}) {
  const { t } = useTranslation();
  const setVatOverride = useEditor((s) => s.setVatOverride);
  const path = `taxRates[${index}].VATAmountOC`;
  const onValue = useCallback((stored: string) => setVatOverride(rate, stored === '' ? null : stored), [setVatOverride, rate]);
  return (
    <td className="vat-override">
      <NumberInput
        data-path={path}
        aria-label={t('drafts.totals.overrideLabel', { rate })}
        placeholder={t('drafts.totals.overrideAuto')}
        value={value}
        dot={moneyDot}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${path}-err` : undefined}
        onValue={onValue}
      />
      {problem && (
        <span className="field-error" id={`${path}-err`}>
          {problem}
        </span>
      )}
    </td>
  );
});

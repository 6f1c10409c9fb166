import { useTranslation } from 'react-i18next';
import { ColumnHeaders } from '../../app/fields';
import { formatAmount } from './format';
import { dotStyleFor, type ComputedInvoice, type Decimal } from './money';
import { NumberInput } from './NumberInput';
import { useEditor } from './store';

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
  const { t } = useTranslation();
  const meta = useEditor((s) => s.meta);
  const setWords = useEditor((s) => s.setWords);
  const setVatOverride = useEditor((s) => s.setVatOverride);
  const decimals = computed.rule.decimals;
  const fmt = (v: Decimal) => formatAmount(v, decimals);
  const tot = computed.totals;
  const words = meta.wordsEdited ? meta.words : computed.words;
  const moneyDot = dotStyleFor('amount', computed.currency);
  return (
    <section className="block totals" aria-labelledby="h-totals">
      <h2 id="h-totals">{t('drafts.totals.title')}</h2>
      <dl>
        <dt>{t('drafts.totals.gross')}</dt>
        <dd data-testid="total-gross">{fmt(tot.grossAmountOC)}</dd>
        <dt>{t('drafts.totals.discount')}</dt>
        <dd data-testid="total-discount">{fmt(tot.TotalDiscountAmountOC)}</dd>
        <dt>{t('drafts.totals.withoutVat')}</dt>
        <dd data-testid="total-without-vat">{fmt(tot.TotalAmountWithoutVATOC)}</dd>
        <dt>{t('drafts.totals.vat')}</dt>
        <dd data-testid="total-vat">{fmt(tot.TotalVATAmountOC)}</dd>
        <dt>{t('drafts.totals.total')}</dt>
        <dd data-testid="total-amount" className="grand">
          {fmt(tot.TotalAmountOC)} {computed.currency}
        </dd>
      </dl>
      <table className="tax-rates" data-testid="tax-rate-info">
        <caption>{t('drafts.totals.taxRateInfo')}</caption>
        <ColumnHeaders columns={[t('drafts.totals.rate'), t('drafts.totals.base'), t('drafts.totals.rateVat'), t('drafts.totals.override')]} />
        <tbody>
          {computed.taxRates.map((r, i) => {
            const path = `taxRates[${i}].VATAmountOC`;
            const problem = byPath.get(path);
            return (
              <tr key={r.VATRateName}>
                <th scope="row">{r.VATRateName}</th>
                <td className="num">{fmt(r.AmountWithoutVATOC)}</td>
                <td className="num">
                  {fmt(r.VATAmountOC)}
                  {r.edited ? ` (${t('drafts.totals.editedVat')})` : ''}
                </td>
                <td className="vat-override">
                  <NumberInput
                    data-path={path}
                    aria-label={t('drafts.totals.overrideLabel', { rate: r.VATRateName })}
                    placeholder={t('drafts.totals.overrideAuto')}
                    value={vatOverrides[r.VATRateName] ?? ''}
                    dot={moneyDot}
                    aria-invalid={problem && r.overrideInvalid ? true : undefined}
                    aria-describedby={problem && r.overrideInvalid ? `${path}-err` : undefined}
                    onValue={(stored) => setVatOverride(r.VATRateName, stored === '' ? null : stored)}
                  />
                  {problem && r.overrideInvalid && (
                    <span className="field-error" id={`${path}-err`}>
                      {problem}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="field words">
        <label htmlFor="f-words">
          {t('drafts.totals.words')}{' '}
          {meta.wordsEdited && (
            <span className="badge-edited" data-testid="words-edited">
              {t('drafts.totals.wordsEdited')}
            </span>
          )}
        </label>
        <textarea
          id="f-words"
          data-path="words"
          data-testid="words"
          rows={2}
          value={words}
          aria-invalid={byPath.get('words') ? true : undefined}
          onChange={(e) => setWords(e.target.value)}
        />
        {meta.wordsEdited && (
          <button type="button" onClick={() => setWords(null)}>
            {t('drafts.totals.wordsAuto')}
          </button>
        )}
        {meta.wordsEdited && meta.words.trim() !== computed.words && <span className="hint">{t('drafts.totals.wordsDiffer', { words: computed.words })}</span>}
      </div>
    </section>
  );
}

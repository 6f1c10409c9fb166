import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CachedTemplate } from '../../../../common/calls/templates';
import { templateAllowed } from '../../../../common/rules';
import { Field, FieldError, fieldOf, type BlockProps } from './Fields';
import type { InvoiceDraft } from './money';
import { NumberInput } from './NumberInput';

export type HeaderSlice = Pick<InvoiceDraft, 'IsTicket' | 'InvSeries' | 'InvDate' | 'CurrencyCode' | 'ExchangeRate' | 'PaymentMethodName'>;

/** The invoice's own fields; re-renders only when they or their problems change, not on a grid keystroke. */
export const HeaderBlock = memo(function HeaderBlock(
  props: BlockProps & {
    draft: HeaderSlice;
    setTicket(isTicket: boolean): void;
    activeTemplates: CachedTemplate[];
    chosen: CachedTemplate | undefined;
    multiRate: boolean;
    templateCount: number;
  },
) {
  const { draft, byPath, codes, onField, setTicket, activeTemplates, chosen, multiRate, templateCount } = props;
  const { t } = useTranslation();
  const f = fieldOf(draft, props);
  const rateProblem = byPath.get('ExchangeRate');
  return (
    <section className="block" aria-labelledby="h-header">
      <h2 id="h-header">{t('drafts.header.title')}</h2>
      <div className="fields">
        <div className="field">
          <label htmlFor="f-kind">{t('drafts.header.kind')}</label>
          <select id="f-kind" data-path="IsTicket" value={draft.IsTicket ? 'ticket' : 'invoice'} onChange={(e) => setTicket(e.target.value === 'ticket')}>
            <option value="invoice">{t('drafts.header.invoice')}</option>
            <option value="ticket">{t('drafts.header.ticket')}</option>
          </select>
        </div>
        <div className="field field-wide">
          <label htmlFor="f-InvSeries">{t('drafts.header.series')}</label>
          <select
            id="f-InvSeries"
            data-path="InvSeries"
            value={draft.InvSeries}
            aria-invalid={byPath.get('InvSeries') ? true : undefined}
            aria-describedby={byPath.get('InvSeries') ? 'f-InvSeries-err' : 'f-InvSeries-hint'}
            onChange={(e) => onField('InvSeries', e.target.value)}
          >
            <option value="">{t('drafts.header.seriesNone')}</option>
            {draft.InvSeries && !chosen && <option value={draft.InvSeries}>{draft.InvSeries}</option>}
            {activeTemplates.map((tpl) => (
              <option key={`${tpl.id}-${tpl.withCode}`} value={tpl.series} disabled={!templateAllowed(tpl, multiRate)}>
                {seriesOptionText(tpl, t('drafts.header.multiRate'))}
              </option>
            ))}
          </select>
          <span className="hint" id="f-InvSeries-hint">
            {templateCount === 0 ? t('drafts.header.noTemplates') : multiRate ? t('drafts.header.multiRateNeeded') : ''}
          </span>
          <FieldError id="f-InvSeries-err" problem={byPath.get('InvSeries')} code={codes.get('InvSeries')} />
        </div>
        <Field {...f('InvDate')} type="date" label={t('drafts.header.date')} />
        <Field {...f('CurrencyCode')} label={t('drafts.header.currency')} list="currency-choices" />
        <div className="field">
          <label htmlFor="f-ExchangeRate">{t('drafts.header.exchangeRate')}</label>
          <NumberInput
            id="f-ExchangeRate"
            data-path="ExchangeRate"
            value={draft.ExchangeRate}
            dot="thousands"
            aria-invalid={rateProblem ? true : undefined}
            aria-describedby={rateProblem ? 'f-ExchangeRate-err' : undefined}
            onValue={(stored) => onField('ExchangeRate', stored)}
          />
          <FieldError id="f-ExchangeRate-err" problem={rateProblem} code={codes.get('ExchangeRate')} />
        </div>
        <Field {...f('PaymentMethodName')} label={t('drafts.header.payment')} list="payment-choices" />
      </div>
      <datalist id="currency-choices">
        {['VND', 'USD', 'EUR', 'JPY', 'CNY'].map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <datalist id="payment-choices">
        {['TM', 'CK', 'TM/CK'].map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
    </section>
  );
});

/** "1C26TAA — Hóa đơn GTGT": the template's name only when it adds something to the series. */
function seriesOptionText(tpl: CachedTemplate, multiRateWord: string): string {
  const name = tpl.name.trim();
  const parts = [tpl.series];
  if (name && name !== tpl.series && !name.includes(tpl.series)) parts.push(name);
  const text = parts.join(' — ');
  return tpl.isMoreVATRate && !text.toLowerCase().includes(multiRateWord.toLowerCase()) ? `${text} (${multiRateWord})` : text;
}

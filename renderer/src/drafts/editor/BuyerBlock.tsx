import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueBuyer } from '../../../../common/calls/catalogues';
import { Autocomplete } from './Autocomplete';
import { BuyerIds } from './BuyerIds';
import { Field, FieldError, fieldOf, type BlockProps } from './Fields';
import type { InvoiceDraft } from './money';
import { searchBuyers } from './search';

export type BuyerSlice = Pick<
  InvoiceDraft,
  'BuyerTaxCode' | 'BuyerLegalName' | 'BuyerAddress' | 'BuyerFullName' | 'BuyerEmail' | 'BuyerPhoneNumber' | 'BuyerCode'
>;

/** The buyer; tax code and company name suggest buyers the catalogue knows. */
export const BuyerBlock = memo(function BuyerBlock(props: BlockProps & { draft: BuyerSlice; pickBuyer(b: CatalogueBuyer): void }) {
  const { draft, byPath, codes, onField, pickBuyer } = props;
  const { t } = useTranslation();
  const f = fieldOf(draft, props);
  const suggested = (path: 'BuyerTaxCode' | 'BuyerLegalName', label: string, className: string, numeric = false) => (
    <div className={className}>
      <label htmlFor={`f-${path}`}>{label}</label>
      <Autocomplete<CatalogueBuyer>
        id={`f-${path}`}
        data-path={path}
        inputMode={numeric ? 'numeric' : undefined}
        value={draft[path]}
        aria-invalid={byPath.get(path) ? true : undefined}
        aria-describedby={byPath.get(path) ? `f-${path}-err` : undefined}
        onChange={(v) => onField(path, v)}
        search={searchBuyers}
        onPick={pickBuyer}
        listLabel={t('drafts.buyer.suggestions')}
      />
      <FieldError id={`f-${path}-err`} problem={byPath.get(path)} code={codes.get(path)} />
    </div>
  );
  return (
    <section className="block" aria-labelledby="h-buyer">
      <h2 id="h-buyer">{t('drafts.buyer.title')}</h2>
      <div className="fields">
        {suggested('BuyerTaxCode', t('drafts.buyer.taxCode'), 'field', true)}
        {/* A real company name is long ("Công ty TNHH Thương mại và Dịch vụ …"): the whole row. */}
        {suggested('BuyerLegalName', t('drafts.buyer.legalName'), 'field field-company')}
        <Field {...f('BuyerAddress')} label={t('drafts.buyer.address')} className="field-full" />
        <Field {...f('BuyerFullName')} label={t('drafts.buyer.contact')} />
        <Field {...f('BuyerEmail')} type="email" label={t('drafts.buyer.email')} />
        <Field {...f('BuyerPhoneNumber')} type="tel" label={t('drafts.buyer.phone')} />
        <Field {...f('BuyerCode')} label={t('drafts.buyer.code')} />
      </div>
      <BuyerIds byPath={byPath} codes={codes} onField={onField} />
    </section>
  );
});

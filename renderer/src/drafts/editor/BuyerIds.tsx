import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, type BlockProps } from './Fields';
import { DECREE70_FIELDS } from '../../../../common/money';
import { useEditor } from './store';

type IdField = (typeof DECREE70_FIELDS)[number];

/**
 * The Decree 70 buyer identity and the shop's outlet: rarely needed at a counter, so folded
 * away until one of them holds a value or a problem (then it stays open, so nothing is hidden).
 */
export function BuyerIds({ byPath, codes, onField }: BlockProps) {
  const { t } = useTranslation();
  // One JSON string per render: the selector's result compares by value.
  const values = JSON.parse(useEditor((s) => JSON.stringify(DECREE70_FIELDS.map((k) => s.draft?.[k] ?? '')))) as string[];
  const troubled = DECREE70_FIELDS.some((k) => byPath.has(k));
  const [open, setOpen] = useState(values.some((v) => v !== ''));
  const value = (k: IdField) => values[DECREE70_FIELDS.indexOf(k)]!;
  const f = (k: IdField) => ({ path: k, value: value(k), problem: byPath.get(k), code: codes.get(k), onChange: onField, label: t(`drafts.buyer.ids.${k}`) });
  return (
    <details className="buyer-ids" open={open || troubled} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('drafts.buyer.ids.title')}</summary>
      <p className="hint">{t('drafts.buyer.ids.hint')}</p>
      <div className="fields">
        <Field {...f('BuyerIDNumber')} inputMode="numeric" />
        <Field {...f('BuyerPassport')} />
        <Field {...f('BuyerBudgetCode')} />
        <Field {...f('SellerShopCode')} />
        <Field {...f('SellerShopName')} />
      </div>
    </details>
  );
}

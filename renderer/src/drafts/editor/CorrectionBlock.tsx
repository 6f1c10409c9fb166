import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CorrectionFields } from '../../../../common/model/correction';
import { dayText } from '../../../../common/rules/issued-register';

/** A correction's reference to its original, read-only: it was filled from the register by code, never typed. */
export const CorrectionBlock = memo(function CorrectionBlock({ correction: c }: { correction: CorrectionFields }) {
  const { t } = useTranslation();
  const series = `${c.OrgInvTemplateNo}${c.OrgInvSeries}`;
  const date = dayText(c.OrgInvDate);
  const fields = [
    ['series', series],
    ['number', c.OrgInvNo],
    ['date', date],
    ['reason', c.InvoiceNote],
  ] as const;
  return (
    <section className="block correction-block" aria-labelledby="h-correction" data-testid="correction-block">
      <h2 id="h-correction">{t('drafts.correction.of', { kind: t(`drafts.correction.kinds.${c.ReferenceType}`), series, number: c.OrgInvNo, date })}</h2>
      <div className="fields">
        {fields.map(([key, value]) => (
          <div className="field" key={key}>
            <label htmlFor={`f-correction-${key}`}>{t(`drafts.correction.${key}`)}</label>
            <input id={`f-correction-${key}`} type="text" value={value} readOnly aria-describedby="correction-read-only" />
          </div>
        ))}
      </div>
      <p className="hint" id="correction-read-only">
        {t('drafts.correction.readOnly')}
      </p>
    </section>
  );
});

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DecimalDigitsSetting } from '../../../common/calls/settings';

const KINDS = [
  'QuantityDecimalDigits',
  'UnitPriceOCDecimalDigits',
  'AmountOCDecimalDigits',
  'AmountDecimalDigits',
  'CoefficientDecimalDigits',
  'ExchangRateDecimalDigits',
] as const satisfies readonly (keyof DecimalDigitsSetting)[];
const CHOICES = [0, 1, 2, 3, 4, 5, 6] as const;

function DigitsSelect({ kind, value, onChange }: { kind: (typeof KINDS)[number]; value: number | null; onChange: (v: number | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{t(`settings.digits.${kind}`)}</label>
      <select id={id} value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
        <option value="">{t('settings.digits.auto')}</option>
        {CHOICES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </>
  );
}

/** The decimal digits the shop issues each kind of number with (sent as OptionUserDefined). */
export function DigitsFieldset({ value, onChange }: { value: DecimalDigitsSetting; onChange: (next: DecimalDigitsSetting) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend>{t('settings.digits.title')}</legend>
      <p className="hint">{t('settings.digits.hint')}</p>
      {KINDS.map((kind) => (
        <DigitsSelect key={kind} kind={kind} value={value[kind]} onChange={(v) => onChange({ ...value, [kind]: v })} />
      ))}
    </fieldset>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INVOICE_KINDS, type InvoiceKind } from '../../../common/model';
import { customRange, dayText, presetRange, RANGE_PRESETS, type DayRange, type RangePreset } from '../../../common/rules/issued-register';
import { SelectField } from '../app/fields';
import { useLive } from '../app/useLive';
import type { RegisterFilter } from './useRegisterPages';

export interface FilterState {
  preset: RangePreset;
  fromText: string;
  toText: string;
  series: string;
  kind: InvoiceKind | '';
  text: string;
}

export function initialFilter(): FilterState {
  const month = presetRange('month');
  return { preset: 'month', fromText: dayText(month.from), toText: dayText(month.to), series: '', kind: '', text: '' };
}

/** The filter as the register's query, or which date is wrong. */
export function toQuery(f: FilterState, text: string): { filter: RegisterFilter; range: DayRange } | { error: 'from' | 'to'; reason: 'date' | 'order' } {
  let range: DayRange;
  if (f.preset === 'custom') {
    const c = customRange(f.fromText, f.toText);
    if (!c.ok) return { error: c.field, reason: c.reason };
    range = c.range;
  } else range = presetRange(f.preset);
  const filter: RegisterFilter = {
    ...range,
    ...(f.series ? { series: [f.series] } : {}),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(text.trim() ? { text: text.trim() } : {}),
  };
  return { filter, range };
}

/** The search text, 200 ms after the last keystroke. */
export function useDebounced(value: string, ms = 200): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Date range (today / this week / this month / custom dd/mm/yyyy), series, kind and the buyer-or-number search. */
export function IssuedFilters({
  value,
  onChange,
  error,
}: {
  value: FilterState;
  onChange: (next: FilterState) => void;
  error: { field: 'from' | 'to'; text: string } | null;
}) {
  const { t } = useTranslation();
  const templates = useLive('templates.list', {}, { 'templates.changed': 'reload' }).data?.templates;
  const seriesChoices = useMemo(() => [...new Set((templates ?? []).map((tpl) => tpl.series))].sort(), [templates]);
  const set = (patch: Partial<FilterState>) => onChange({ ...value, ...patch });
  const choosePreset = (preset: RangePreset) => {
    if (preset === 'custom') return set({ preset });
    const r = presetRange(preset);
    set({ preset, fromText: dayText(r.from), toText: dayText(r.to) });
  };
  const dateField = (field: 'from' | 'to') => {
    const bad = error?.field === field;
    return (
      <label className="field issued-date">
        <span>{t(`issued.${field}`)}</span>
        <input
          type="text"
          inputMode="numeric"
          value={field === 'from' ? value.fromText : value.toText}
          placeholder={t('issued.datePlaceholder')}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? 'issued-date-error' : undefined}
          onChange={(e) => set({ preset: 'custom', [field === 'from' ? 'fromText' : 'toText']: e.target.value })}
        />
      </label>
    );
  };
  return (
    <div className="issued-filters" role="group" aria-label={t('issued.filters')}>
      <div role="group" aria-label={t('issued.range')} className="issued-presets">
        {RANGE_PRESETS.map((p) => (
          <button key={p} type="button" className="chip" aria-pressed={value.preset === p} onClick={() => choosePreset(p)}>
            {t(`issued.presets.${p}`)}
          </button>
        ))}
      </div>
      {dateField('from')}
      {dateField('to')}
      <SelectField
        label={t('issued.series')}
        value={value.series}
        onChange={(series) => set({ series })}
        options={[
          { value: '', label: t('issued.allSeries') },
          ...[...new Set([...seriesChoices, ...(value.series ? [value.series] : [])])].map((s) => ({ value: s, label: s })),
        ]}
      />
      <SelectField
        label={t('issued.kind')}
        value={value.kind}
        onChange={(kind) => set({ kind })}
        options={[{ value: '' as const, label: t('issued.allKinds') }, ...INVOICE_KINDS.map((k) => ({ value: k, label: t(`issued.kinds.${k}`) }))]}
      />
      <label className="field grow">
        <span>{t('issued.search')}</span>
        <input type="search" maxLength={200} value={value.text} onChange={(e) => set({ text: e.target.value })} />
      </label>
      {error && (
        <p id="issued-date-error" role="alert" className="issued-date-error">
          {error.text}
        </p>
      )}
    </div>
  );
}

/**
 * Which template series a draft may use. A draft with several real VAT rates can only be issued
 * on a template made for several rates (IsMoreVATRate); a series that is not an active template
 * of the draft's kind is flagged. The screen and the preview service both ask these rules.
 */
import { problem, type Problem } from './problem';

export interface SeriesTemplate {
  series: string;
  inactive: boolean;
  ticket: boolean;
  isMoreVATRate: boolean;
}

/** Several real VAT rates (KCT/KKKNT/0 %/5 %… each count; an unreadable label does not). */
export function isMultiRate(rows: ReadonlyArray<{ vat: unknown }>): boolean {
  return rows.filter((r) => r.vat !== null).length > 1;
}

/** Templates the series picker offers for a draft of this kind. */
export function activeTemplatesFor<T extends SeriesTemplate>(templates: readonly T[], isTicket: boolean): T[] {
  return templates.filter((t) => !t.inactive && t.ticket === isTicket);
}

/** A template may be picked for this draft (a multi-rate draft needs an IsMoreVATRate one). */
export function templateAllowed(template: SeriesTemplate, multiRate: boolean): boolean {
  return !multiRate || template.isMoreVATRate;
}

export function multiRateProblem(series: string): Problem {
  return problem(['InvSeries'], 'series.multiRate', {
    en: `This invoice has several VAT rates: choose a multi-rate template (series ${series} has one rate).`,
    vi: `Hóa đơn có nhiều thuế suất: hãy chọn mẫu nhiều thuế suất (ký hiệu ${series} chỉ một thuế suất).`,
  });
}

/**
 * Problems with the draft's series given the known templates: an error when a multi-rate draft
 * uses a one-rate template, a warning when the series is not an active template of its kind.
 * Without any known template (never fetched) nothing is said.
 */
export function seriesChoiceProblems(input: { series: string; isTicket: boolean; multiRate: boolean; templates: readonly SeriesTemplate[] }): Problem[] {
  const series = input.series.trim();
  if (series === '' || input.templates.length === 0) return [];
  const chosen = activeTemplatesFor(input.templates, input.isTicket).find((t) => t.series === series);
  if (!chosen) {
    return [
      problem(
        ['InvSeries'],
        'series.notActive',
        { en: `Series ${series} is not an active template of this kind.`, vi: `Ký hiệu ${series} không phải mẫu đang dùng của loại này.` },
        'warning',
      ),
    ];
  }
  return templateAllowed(chosen, input.multiRate) ? [] : [multiRateProblem(series)];
}

import type { CallResponse } from '../../../common/contract';
import type { IssuingSettings } from '../../../common/calls/settings';
import { Dec, formatTyped, parseTyped } from '../../../common/money';
import { parseSeries } from '../../../common/rules/series';

/** The longest pause between two requests of one series the settings accept (60 s). */
const MAX_GAP_MS = 60_000;

/** The pause as the person reads it: seconds in vi-VN (`1`, `1,5`). */
export function gapSecondsText(ms: number): string {
  return formatTyped(new Dec(ms).div(1000), { dot: 'either' });
}

/** Seconds as typed (`1`, `1,5`, `0.5`) → whole milliseconds, or null when it is not 0–60 s. */
export function parseGapSeconds(text: string): number | null {
  const typed = parseTyped(text, { dot: 'either', allowNegative: false });
  if (typed.kind !== 'ok') return null;
  const ms = typed.value.mul(1000).toDecimalPlaces(0).toNumber();
  return ms >= 0 && ms <= MAX_GAP_MS ? ms : null;
}

/** The series list as one line: `1C26TAA, 1C26MAA`. */
export function seriesListText(series: readonly string[]): string {
  return series.join(', ');
}

/** A typed series list (commas, spaces or semicolons between) → normalised series, and the ones that are not series. */
export function parseSeriesList(text: string): { series: string[]; invalid: string[] } {
  const series: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    if (!raw) continue;
    const p = parseSeries(raw);
    if (!p.ok) invalid.push(raw);
    else if (!series.includes(p.normalised)) series.push(p.normalised);
  }
  return { series, invalid };
}

/** The form of the Settings section: the settings as typed, before they are read back. */
export interface IssuingForm {
  signType: IssuingSettings['signType'];
  certificateSN: string;
  gap: string;
  autoDownload: boolean;
  downloadTypes: IssuingSettings['downloadTypes'];
  email: IssuingSettings['email'];
  series: string;
}

export function formFromSettings(s: IssuingSettings): IssuingForm {
  return {
    signType: s.signType,
    certificateSN: s.certificateSN ?? '',
    gap: gapSecondsText(s.seriesGapMs),
    autoDownload: s.autoDownload,
    downloadTypes: s.downloadTypes,
    email: s.email,
    series: seriesListText(s.series),
  };
}

export type IssuingFormResult = { ok: true; settings: IssuingSettings } | { ok: false; gap: boolean; invalidSeries: string[] };

/** The form read back into settings, or which fields are wrong. */
export function settingsFromForm(form: IssuingForm): IssuingFormResult {
  const gap = parseGapSeconds(form.gap);
  const { series, invalid } = parseSeriesList(form.series);
  if (gap === null || invalid.length > 0) return { ok: false, gap: gap === null, invalidSeries: invalid };
  return {
    ok: true,
    settings: {
      signType: form.signType,
      certificateSN: form.certificateSN.trim() || null,
      seriesGapMs: gap,
      autoDownload: form.autoDownload,
      downloadTypes: form.downloadTypes.length > 0 ? form.downloadTypes : ['Pdf'],
      email: form.email,
      series,
    },
  };
}

export type Certificate = CallResponse<'issuing.certificates'>['items'][number];

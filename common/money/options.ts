import type { Settings } from '../calls/settings';
import type { DecimalDigits } from '../model/issuing';
import type { ComputeOptions } from './compute';
import type { IssuingOptions } from './issuing';

/** The totals options the user's settings decide (how the amount is written in words). */
export function computeOptionsFromSettings(settings: Pick<Settings, 'amountInWords'> | undefined): ComputeOptions {
  if (!settings) return {};
  const w = settings.amountInWords;
  return { words: { zeroTens: w.zeroTens, thousand: w.thousand, useTu: w.useTu, chan: w.even } };
}

/** The issuing options the settings decide: the words, and the digits the shop fixed (the others follow the draft). */
export function issuingOptionsFromSettings(settings: Pick<Settings, 'amountInWords' | 'decimalDigits'> | undefined): IssuingOptions {
  if (!settings) return {};
  const digits: Partial<DecimalDigits> = {};
  for (const [k, v] of Object.entries(settings.decimalDigits) as [keyof DecimalDigits, number | null][]) if (v !== null) digits[k] = v;
  return { ...computeOptionsFromSettings(settings), digits };
}

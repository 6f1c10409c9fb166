import type { Settings } from '../calls/settings';
import type { ComputeOptions } from './compute';

/** The totals options the user's settings decide (how the amount is written in words). */
export function computeOptionsFromSettings(settings: Pick<Settings, 'amountInWords'> | undefined): ComputeOptions {
  if (!settings) return {};
  const w = settings.amountInWords;
  return { words: { zeroTens: w.zeroTens, thousand: w.thousand, useTu: w.useTu, chan: w.even } };
}

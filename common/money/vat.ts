/**
 * VAT rate labels (VATRateName). Source: docs/invoice-rules.md#vat-labels — `0%`, `5%`, `8%`, `10%`, `KCT` (not
 * subject to VAT), `KKKNT` (not declared / not paid), `KHAC:x%` (another rate; `KHACx%` is
 * accepted on input and normalised to `KHAC:x%`).
 */
import { Dec, type Decimal } from './decimal';

type VatKind = 'percent' | 'KCT' | 'KKKNT' | 'KHAC';

export interface VatRate {
  kind: VatKind;
  /** The rate in percent (10 for 10%); null for KCT and KKKNT, which carry no VAT. */
  rate: Decimal | null;
  /** The normalised label, as sent to the service. */
  label: string;
}

export const STANDARD_VAT_LABELS = ['0%', '5%', '8%', '10%', 'KCT', 'KKKNT'] as const;
const STANDARD_PERCENT_RATES = ['0', '5', '8', '10'] as const;

const PERCENT = /^(\d+(?:[.,]\d+)?)\s*%?$/;
const KHAC = /^KHAC\s*:?\s*(\d+(?:[.,]\d+)?)\s*%?$/;

/**
 * Parses a label (case-insensitive, spaces tolerated). Returns null when it is not one of the
 * allowed labels. `10` and `10 %` read as `10%`; a bare percentage other than 0/5/8/10 is not a
 * standard rate and must be written `KHAC:x%`.
 */
export function parseVatLabel(input: string | null | undefined): VatRate | null {
  if (input === null || input === undefined) return null;
  const s = input.trim().toUpperCase();
  if (s === 'KCT') return { kind: 'KCT', rate: null, label: 'KCT' };
  if (s === 'KKKNT') return { kind: 'KKKNT', rate: null, label: 'KKKNT' };
  const p = PERCENT.exec(s);
  if (p) {
    const rate = new Dec(p[1]!.replace(',', '.'));
    if ((STANDARD_PERCENT_RATES as readonly string[]).includes(rate.toFixed())) {
      return { kind: 'percent', rate, label: formatVatLabel({ kind: 'percent', rate }) };
    }
    return null;
  }
  const k = KHAC.exec(s);
  if (k) {
    const rate = new Dec(k[1]!.replace(',', '.'));
    if (rate.gt(100)) return null;
    return { kind: 'KHAC', rate, label: formatVatLabel({ kind: 'KHAC', rate }) };
  }
  return null;
}

/** Formats back to the canonical label. */
export function formatVatLabel(v: { kind: VatKind; rate: Decimal | null }): string {
  switch (v.kind) {
    case 'KCT':
      return 'KCT';
    case 'KKKNT':
      return 'KKKNT';
    case 'percent':
      return `${(v.rate ?? new Dec(0)).toFixed()}%`;
    case 'KHAC':
      return `KHAC:${(v.rate ?? new Dec(0)).toFixed()}%`;
  }
}

/** The canonical label for input, or null when it is not an allowed label. */
export function normaliseVatLabel(input: string | null | undefined): string | null {
  return parseVatLabel(input)?.label ?? null;
}

/** Sort key: standard percentages ascending, then other rates ascending, then KCT, KKKNT. */
export function vatSortKey(v: VatRate): [number, number] {
  switch (v.kind) {
    case 'percent':
      return [0, v.rate!.toNumber()];
    case 'KHAC':
      return [1, v.rate!.toNumber()];
    case 'KCT':
      return [2, 0];
    case 'KKKNT':
      return [3, 0];
  }
}

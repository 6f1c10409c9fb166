/**
 * VAT rate labels that move with the calendar, kept as plain dated data: the next extension
 * of the 2-point reduction, or a new decree, is a new row in VAT_RATE_RULES (or a table passed
 * in by the caller, e.g. one delivered with an update), not a code change.
 *
 * A label is valid on a date when at least one row for it covers that date (both ends
 * inclusive, `null` = open). Labels with no row at all (KHAC:x%, unknown text) are not judged
 * here: parsing them is common/money/vat.ts's job.
 */
import { parseVatLabel } from '../money/vat';

/** Goods a row does not apply to. `excise`: goods subject to special consumption (excise) tax. */
export type VatRuleExclusion = 'excise';

export interface VatRateRule {
  /** Stable id, e.g. `reduced-8-2025h2-2026`. */
  id: string;
  /** Canonical VATRateName (`8%`, `10%`, `KCT` …). */
  label: string;
  /** First day the label may be used (`YYYY-MM-DD`, inclusive); null = no known start. */
  from: string | null;
  /** Last day (inclusive); null = open-ended. */
  to: string | null;
  /** For a reduced rate: the label the goods take outside the window (`10%`). */
  instead?: string;
  /** Goods the row does not cover. */
  excludes?: readonly VatRuleExclusion[];
  /** Legal source, as a person would cite it (English, and Vietnamese for the Vietnamese messages). */
  source: string;
  sourceVi: string;
}

const VAT_LAW = 'Law on VAT 13/2008/QH12 (as amended); Law on VAT 48/2024/QH15 from 2025-07-01';
const VAT_LAW_VI = 'Luật Thuế GTGT 13/2008/QH12 (sửa đổi); Luật Thuế GTGT 48/2024/QH15 từ 2025-07-01';
const INVOICE_DECREE = 'Decree 123/2020/ND-CP; Circular 78/2021/TT-BTC (VATRateName labels)';
const INVOICE_DECREE_VI = 'Nghị định 123/2020/NĐ-CP; Thông tư 78/2021/TT-BTC (ký hiệu thuế suất)';

/** Reduced-rate rows exclude excise goods (each decree's list of exclusions names them). */
const REDUCED = { label: '8%', instead: '10%', excludes: ['excise'] as const };

export const VAT_RATE_RULES: readonly VatRateRule[] = [
  { id: 'standard-0', label: '0%', from: null, to: null, source: VAT_LAW, sourceVi: VAT_LAW_VI },
  { id: 'standard-5', label: '5%', from: null, to: null, source: VAT_LAW, sourceVi: VAT_LAW_VI },
  { id: 'standard-10', label: '10%', from: null, to: null, source: VAT_LAW, sourceVi: VAT_LAW_VI },
  { id: 'not-subject', label: 'KCT', from: null, to: null, source: `${VAT_LAW} (not subject to VAT)`, sourceVi: `${VAT_LAW_VI} (không chịu thuế)` },
  {
    id: 'not-declared',
    label: 'KKKNT',
    from: null,
    to: null,
    source: `${INVOICE_DECREE} (not declared, not paid)`,
    sourceVi: `${INVOICE_DECREE_VI} (không kê khai, tính nộp thuế)`,
  },
  {
    id: 'reduced-8-2022',
    ...REDUCED,
    from: '2022-02-01',
    to: '2022-12-31',
    source: 'Resolution 43/2022/QH15; Decree 15/2022/ND-CP',
    sourceVi: 'Nghị quyết 43/2022/QH15; Nghị định 15/2022/NĐ-CP',
  },
  {
    id: 'reduced-8-2023h2',
    ...REDUCED,
    from: '2023-07-01',
    to: '2023-12-31',
    source: 'Resolution 101/2023/QH15; Decree 44/2023/ND-CP',
    sourceVi: 'Nghị quyết 101/2023/QH15; Nghị định 44/2023/NĐ-CP',
  },
  {
    id: 'reduced-8-2024h1',
    ...REDUCED,
    from: '2024-01-01',
    to: '2024-06-30',
    source: 'Resolution 110/2023/QH15; Decree 94/2023/ND-CP',
    sourceVi: 'Nghị quyết 110/2023/QH15; Nghị định 94/2023/NĐ-CP',
  },
  {
    id: 'reduced-8-2024h2',
    ...REDUCED,
    from: '2024-07-01',
    to: '2024-12-31',
    source: 'Resolution 142/2024/QH15; Decree 72/2024/ND-CP',
    sourceVi: 'Nghị quyết 142/2024/QH15; Nghị định 72/2024/NĐ-CP',
  },
  {
    id: 'reduced-8-2025h1',
    ...REDUCED,
    from: '2025-01-01',
    to: '2025-06-30',
    source: 'Resolution 174/2024/QH15; Decree 180/2024/ND-CP',
    sourceVi: 'Nghị quyết 174/2024/QH15; Nghị định 180/2024/NĐ-CP',
  },
  {
    id: 'reduced-8-2025h2-2026',
    ...REDUCED,
    from: '2025-07-01',
    to: '2026-12-31',
    source: 'Resolution 204/2025/QH15; Decree 174/2025/ND-CP',
    sourceVi: 'Nghị quyết 204/2025/QH15; Nghị định 174/2025/NĐ-CP',
  },
];

export interface VatGoods {
  /** The goods are subject to excise (special consumption) tax. */
  excise?: boolean;
}

function covers(rule: VatRateRule, date: string, goods: VatGoods): boolean {
  if (rule.from !== null && date < rule.from) return false;
  if (rule.to !== null && date > rule.to) return false;
  if (goods.excise && rule.excludes?.includes('excise')) return false;
  return true;
}

function canonical(label: string): string {
  return parseVatLabel(label)?.label ?? label.trim();
}

/** The rows in force for a label on a date (empty when none). */
export function vatRulesOn(label: string, date: string, goods: VatGoods = {}, table: readonly VatRateRule[] = VAT_RATE_RULES): VatRateRule[] {
  const l = canonical(label);
  return table.filter((r) => r.label === l && covers(r, date, goods));
}

/** Every label of the table valid on a date, in table order without repeats. */
export function vatLabelsOn(date: string, goods: VatGoods = {}, table: readonly VatRateRule[] = VAT_RATE_RULES): string[] {
  const out: string[] = [];
  for (const r of table) if (!out.includes(r.label) && covers(r, date, goods)) out.push(r.label);
  return out;
}

export type VatRateOnDate =
  | { status: 'valid'; rules: VatRateRule[] }
  /** The label has no row in the table (KHAC:x%, unreadable): not judged by date. */
  | { status: 'unknown' }
  | {
      status: 'outside';
      /** `ended`: the last window closed before the date; `notYet`: the first opens after it; `excluded`: these goods are left out. */
      reason: 'ended' | 'notYet' | 'excluded';
      /** The window the date is nearest to (the last one that ended, or the next one to open). */
      rule: VatRateRule;
      /** The label to use instead on that date, when the table says (`10%` for `8%`). */
      suggested: string | null;
    };

/** Judges a line's VAT label on the invoice date. */
export function vatRateOnDate(label: string, date: string, goods: VatGoods = {}, table: readonly VatRateRule[] = VAT_RATE_RULES): VatRateOnDate {
  const l = canonical(label);
  const rows = table.filter((r) => r.label === l);
  if (rows.length === 0) return { status: 'unknown' };
  const valid = rows.filter((r) => covers(r, date, goods));
  if (valid.length > 0) return { status: 'valid', rules: valid };
  const inWindow = rows.filter((r) => covers(r, date, {}));
  const suggestedFor = (r: VatRateRule) => (r.instead && vatRulesOn(r.instead, date, goods, table).length > 0 ? r.instead : null);
  if (inWindow.length > 0) return { status: 'outside', reason: 'excluded', rule: inWindow[0]!, suggested: suggestedFor(inWindow[0]!) };
  const ended = rows.filter((r) => r.to !== null && r.to < date).sort((a, b) => (a.to! < b.to! ? 1 : -1));
  if (ended.length > 0) return { status: 'outside', reason: 'ended', rule: ended[0]!, suggested: suggestedFor(ended[0]!) };
  const next = rows.filter((r) => r.from !== null && r.from > date).sort((a, b) => (a.from! < b.from! ? -1 : 1))[0]!;
  return { status: 'outside', reason: 'notYet', rule: next, suggested: suggestedFor(next) };
}

/**
 * The rate the line grid should offer for goods on a date, starting from the label typed or
 * the shop's default: the label itself when valid; the table's replacement when it is not
 * (`8%` after its window → `10%`); for a full rate that a reduced row covers on that date
 * (`10%` inside the window, goods not excluded) the reduced label, marked `optional` because
 * not every kind of goods qualifies (the decrees list further exclusions by activity).
 */
export function suggestVatRate(
  label: string,
  date: string,
  goods: VatGoods = {},
  table: readonly VatRateRule[] = VAT_RATE_RULES,
): { label: string; optional: boolean; rule: VatRateRule | null } {
  const judged = vatRateOnDate(label, date, goods, table);
  if (judged.status === 'outside') return { label: judged.suggested ?? canonical(label), optional: false, rule: judged.rule };
  const l = canonical(label);
  const reduced = table.find((r) => r.instead === l && covers(r, date, goods));
  if (reduced) return { label: reduced.label, optional: true, rule: reduced };
  return { label: l, optional: false, rule: judged.status === 'valid' ? judged.rules[0]! : null };
}

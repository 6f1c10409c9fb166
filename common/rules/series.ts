/**
 * Series symbol (ký hiệu hóa đơn), e.g. `1C25TAA`. Source: docs/invoice-rules.md#series-symbol —
 *   1 digit   form: 1 VAT invoice, 2 sales invoice, 3 public assets, 4 national reserve goods,
 *             5 e-stamp/ticket/card, 6 warehouse note, 7 electronic commercial invoice
 *             (hóa đơn thương mại điện tử)
 *   C | K     with a tax-authority code / without
 *   2 digits  year of issue (last two digits)
 *   1 letter  type: T, D, L, M (cash register), N, B, G, H, X
 *   2 letters chosen by the seller
 * The six-character form without the form digit (`C25TAA`, as in a template's OrgInvSeries)
 * is accepted too (formDigit null).
 */
const SERIES_TYPE_LETTERS = ['T', 'D', 'L', 'M', 'N', 'B', 'G', 'H', 'X'] as const;

interface SeriesParts {
  /** Form digit (1 VAT invoice, 2 sales invoice …); null for the six-character form. */
  formDigit: number | null;
  /** True for `C` (with a tax-authority code), false for `K`. */
  withCode: boolean;
  /** Two-digit year as written (`25`). */
  yearDigits: string;
  /** Full year (2000 + yearDigits). */
  year: number;
  typeLetter: string;
  sellerLetters: string;
  normalised: string;
}

type SeriesCheck = ({ ok: true } & SeriesParts) | { ok: false; code: string; message: string; messageVi: string };

const SERIES = /^(\d)?([CK])(\d{2})([A-Z])([A-Z]{2})$/;

export function parseSeries(input: string): SeriesCheck {
  const s = input.trim().toUpperCase();
  const m = SERIES.exec(s);
  const bad = (code: string, en: string, vi: string): SeriesCheck => ({ ok: false, code, message: en, messageVi: vi });
  if (!m) {
    return bad(
      'series.format',
      `Series "${input.trim()}" is not valid: expected e.g. 1C25TAA (form digit, C or K, two year digits, a type letter, two letters).`,
      `Ký hiệu "${input.trim()}" không hợp lệ: ví dụ đúng 1C25TAA (số mẫu, C hoặc K, hai số năm, một chữ loại, hai chữ cái).`,
    );
  }
  const [, form, ck, yy, type, seller] = m;
  if (!(SERIES_TYPE_LETTERS as readonly string[]).includes(type!)) {
    return bad(
      'series.type',
      `Series "${s}": type letter "${type}" is not one of ${SERIES_TYPE_LETTERS.join(', ')}.`,
      `Ký hiệu "${s}": chữ loại "${type}" không thuộc ${SERIES_TYPE_LETTERS.join(', ')}.`,
    );
  }
  if (form === '0') {
    return bad('series.form', `Series "${s}": the form digit cannot be 0.`, `Ký hiệu "${s}": số mẫu không được là 0.`);
  }
  return {
    ok: true,
    formDigit: form === undefined ? null : Number(form),
    withCode: ck === 'C',
    yearDigits: yy!,
    year: 2000 + Number(yy),
    typeLetter: type!,
    sellerLetters: seller!,
    normalised: s,
  };
}

/** A warning text when the series' year digits differ from InvDate's year; null when they match or cannot be compared. */
export function seriesYearMismatch(series: SeriesParts, invDate: string): { message: string; messageVi: string } | null {
  const m = /^(\d{4})-\d{2}-\d{2}$/.exec(invDate);
  if (!m) return null;
  const year = m[1]!;
  if (year.slice(2) === series.yearDigits) return null;
  return {
    message: `Series ${series.normalised} is for year 20${series.yearDigits}, but the invoice date is in ${year}.`,
    messageVi: `Ký hiệu ${series.normalised} dành cho năm 20${series.yearDigits}, nhưng ngày hóa đơn thuộc năm ${year}.`,
  };
}

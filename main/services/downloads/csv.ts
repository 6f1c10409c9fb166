import Papa from 'papaparse';
import type { Bilingual } from '../../../common/model';

interface FailedRow {
  transactionId: string;
  errorCode: string | null;
  message: Bilingual | null;
}

/**
 * The failed items as CSV (RFC 4180, CRLF, UTF-8 with a BOM so Excel shows Vietnamese right).
 * Cells that a spreadsheet would run as a formula are prefixed with an apostrophe.
 */
export function failedItemsCsv(rows: readonly FailedRow[]): string {
  const guard = (s: string | null) => {
    const v = s ?? '';
    return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  };
  const body = Papa.unparse(
    {
      fields: ['TransactionID', 'ErrorCode', 'Message', 'MessageVi'],
      data: rows.map((r) => [guard(r.transactionId), guard(r.errorCode), guard(r.message?.en ?? null), guard(r.message?.vi ?? null)]),
    },
    { newline: '\r\n', quotes: true },
  );
  return `\uFEFF${body}\r\n`;
}

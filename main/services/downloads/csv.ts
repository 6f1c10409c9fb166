import type { Bilingual } from '../../../common/model';
import { spreadsheetCsv } from '../csv';

interface FailedRow {
  transactionId: string;
  errorCode: string | null;
  message: Bilingual | null;
}

/** The failed items as CSV (see spreadsheetCsv: quoted, formulas neutralised). */
export function failedItemsCsv(rows: readonly FailedRow[]): string {
  return spreadsheetCsv(
    ['TransactionID', 'ErrorCode', 'Message', 'MessageVi'],
    rows.map((r) => [r.transactionId, r.errorCode, r.message?.en ?? null, r.message?.vi ?? null]),
  );
}

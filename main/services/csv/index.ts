import Papa from 'papaparse';

/** A cell a spreadsheet program would run as a formula (or that hides one behind a tab or CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV file for spreadsheet programs, the one writer of every CSV the app saves: UTF-8 with a BOM
 * (Vietnamese shown right), `,`, CRLF, every cell quoted by papaparse and every cell that starts
 * with `=`, `+`, `-`, `@`, tab or CR prefixed with an apostrophe (papaparse's own default pattern
 * misses a cell with a line break after the formula).
 */
export function spreadsheetCsv(fields: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | null>>): string {
  const body = Papa.unparse(
    { fields: [...fields], data: rows.map((r) => r.map((c) => c ?? '')) },
    { delimiter: ',', newline: '\r\n', quotes: true, escapeFormulae: FORMULA_START },
  );
  return `\uFEFF${body}\r\n`;
}

import Papa from 'papaparse';

export interface ParsedIds {
  /** Unique TransactionIDs in first-seen order. */
  ids: string[];
  /** How many repeats were dropped. */
  duplicates: number;
  /** How many empty entries were dropped. */
  blanks: number;
}

const SEPARATOR = /[\s,;]/;
const HEADER = /^(transaction[\s_-]*id|transactionid|mã tra cứu|ma tra cuu|id)$/i;

/** Drops blanks and duplicates (exact match after trimming), keeping the first occurrence. */
export function dedupeIds(raw: readonly string[]): ParsedIds {
  const seen = new Set<string>();
  const ids: string[] = [];
  let duplicates = 0;
  let blanks = 0;
  for (const entry of raw) {
    const id = (entry.charCodeAt(0) === 0xfeff ? entry.slice(1) : entry).trim();
    if (id === '') {
      blanks++;
      continue;
    }
    if (seen.has(id)) {
      duplicates++;
      continue;
    }
    seen.add(id);
    ids.push(id);
  }
  return { ids, duplicates, blanks };
}

/** Rows pasted from a spreadsheet: two or more lines, each with the same number (≥ 2) of tab-separated cells. */
function isSpreadsheetPaste(lines: readonly string[]): boolean {
  const first = lines.find((l) => l.trim() !== '');
  // One cell in the first row: not a table (no need to look at the other lines).
  if (first === undefined || !first.includes('\t')) return false;
  const filled = lines.filter((l) => l.trim() !== '');
  if (filled.length < 2) return false;
  const cells = filled[0]!.split('\t').length;
  return cells >= 2 && filled.every((l) => l.split('\t').length === cells);
}

/**
 * TransactionIDs from pasted text or an imported TXT/CSV file. A CSV file, text headed by a
 * TransactionID column, or rows pasted from a spreadsheet are read as a table: the column headed
 * TransactionID when there is one, otherwise the first column. Any other list splits on new
 * lines, commas, semicolons, tabs and spaces (a TransactionID holds none of them).
 */
export function parseIdsText(text: string, fileName?: string): ParsedIds {
  const body = text.replace(/^\uFEFF/, '');
  const lines = body.split(/\r\n|\n|\r/);
  const firstLine = lines.find((l) => l.trim() !== '') ?? '';
  const headed = firstLine.split(/[,;\t|]/).some((cell) => HEADER.test(cell.replace(/"/g, '').trim()));
  const isTable = /\.csv$/i.test(fileName ?? '') || headed || isSpreadsheetPaste(lines);
  if (!isTable) {
    const raw: string[] = [];
    for (const line of lines) {
      // Most lines of a long list are one ID: only a line with a separator is split.
      if (!SEPARATOR.test(line)) {
        raw.push(line);
        continue;
      }
      const parts = line.split(/[\s,;]+/);
      if (parts.every((p) => p === '')) raw.push('');
      else raw.push(...parts.filter((p) => p !== ''));
    }
    // A trailing newline is not a blank entry.
    if (raw.length > 0 && raw[raw.length - 1] === '' && /[\r\n]$/.test(body)) raw.pop();
    return dedupeIds(raw);
  }
  const delimiter = [',', ';', '\t', '|'].map((d) => ({ d, n: firstLine.split(d).length })).sort((a, b) => b.n - a.n)[0]!.d;
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: false, delimiter });
  const rows = parsed.data.filter((r) => Array.isArray(r));
  let column = 0;
  let start = 0;
  const head = rows[0];
  if (head) {
    const idx = head.findIndex((cell) => HEADER.test(String(cell ?? '').trim()));
    if (idx >= 0) {
      column = idx;
      start = 1;
    }
  }
  const raw: string[] = [];
  for (let i = start; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.length === 1 && row[0] === '' && i === rows.length - 1) continue; // trailing newline
    raw.push(String(row[column] ?? ''));
  }
  return dedupeIds(raw);
}

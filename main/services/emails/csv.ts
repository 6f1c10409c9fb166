import Papa from 'papaparse';
import type { EmailEntry, EmailReject } from '../../../common/calls/emails';
import type { InvoiceKind } from '../../../common/model';
import { spreadsheetCsv } from '../csv';
import { jsonbRows, readJsonbRows } from '../store/jsonb';
import { checkInput, type CleanInput } from './input';

/** The import columns, in their default order (used when a file has no header line). */
export const CSV_COLUMNS = ['TransactionID', 'ReceiverName', 'ReceiverEmail', 'CCEmail', 'BCCEmail', 'ReplyEmail'] as const;
type Column = (typeof CSV_COLUMNS)[number];

const FIELD: Record<Column, keyof CleanInput> = {
  TransactionID: 'transactionId',
  ReceiverName: 'receiverName',
  ReceiverEmail: 'receiverEmail',
  CCEmail: 'ccEmail',
  BCCEmail: 'bccEmail',
  ReplyEmail: 'replyEmail',
};

export interface ParsedCsv {
  good: Array<{ line: number; input: CleanInput }>;
  bad: EmailReject[];
  /** Data rows seen (not counting the header and empty lines). */
  rows: number;
}

/** Counts `ch` outside double quotes in one line. */
function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) n++;
  }
  return n;
}

const norm = (s: string) =>
  s
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
const HEADER_INDEX = new Map<string, Column>(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));

/**
 * Reads an email CSV: UTF-8 with or without BOM; `,` or `;` between fields (decided from the
 * header line); columns TransactionID, ReceiverName, ReceiverEmail, CCEmail, BCCEmail,
 * ReplyEmail in any order (by header) or in that order without a header. Quoted fields may hold
 * the other delimiter and line breaks. Every bad row is reported with its line number and reason;
 * bad rows never stop the good ones. Address lists are split on `;`/`,` and joined with `;`.
 */
export function parseEmailCsv(text: string, kind: InvoiceKind): ParsedCsv {
  const good: ParsedCsv['good'] = [];
  const { bad, rows } = readEmailCsv(text, kind, (chunk) => void good.push(...chunk));
  return { good, bad, rows };
}

/** What readEmailCsv returns: the good rows went to its `onRows`. */
export type CsvReadEnd = Omit<ParsedCsv, 'good'>;

/** Good rows per `onRows` call of readEmailCsv: what one import transaction takes. */
export const CSV_CHUNK = 20_000;

/** How much each chunk after a small first one may grow, up to the full `chunk`. */
const RAMP = 2;

/**
 * Reads an email CSV as parseEmailCsv does, handing the good rows on in chunks of `chunk` as the
 * parser reaches them (in file order), so no more than one chunk of rows is held at a time. With a
 * smaller `first`, the chunks grow from it twofold each time up to `chunk`: a reader on another
 * thread then keeps ahead of the database from the start instead of making it wait for a full
 * chunk after the first.
 */
export function readEmailCsv(text: string, kind: InvoiceKind, onRows: (good: ParsedCsv['good']) => void, chunk = CSV_CHUNK, first = chunk): CsvReadEnd {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let good: ParsedCsv['good'] = [];
  let limit = first;
  const bad: EmailReject[] = [];
  const firstLineEnd = body.search(/\r?\n/);
  const firstLine = firstLineEnd === -1 ? body : body.slice(0, firstLineEnd);
  const firstCells = firstLine.split(/[,;]/).map(norm);
  const hasHeader = firstCells.some((c) => HEADER_INDEX.has(c));
  const delimiter = countOutsideQuotes(firstLine, ';') > countOutsideQuotes(firstLine, ',') ? ';' : ',';

  let columns: Array<Column | null> = [...CSV_COLUMNS];
  let rows = 0;
  let prevCursor = 0;
  let lineAt = 1; // line number at prevCursor
  let isFirst = true;

  const lineOf = (start: number): number => {
    // Move past line breaks left by the previous row (and skipped empty lines).
    let i = prevCursor;
    let line = lineAt;
    while (i < start) {
      if (body.charCodeAt(i) === 10) line++;
      i++;
    }
    return line;
  };

  Papa.parse<string[]>(body, {
    delimiter,
    skipEmptyLines: 'greedy',
    step: (result) => {
      const cursor = result.meta.cursor;
      // The row starts at the first non-break character after the previous row.
      let start = prevCursor;
      while (start < body.length && (body[start] === '\r' || body[start] === '\n' || body[start] === ' ' || body[start] === '\t')) start++;
      const line = lineOf(start);
      // Advance the line counter to the end of this row.
      let l = line;
      for (let i = start; i < cursor && i < body.length; i++) if (body.charCodeAt(i) === 10) l++;
      prevCursor = cursor;
      lineAt = l;

      const cells = result.data;
      if (isFirst) {
        isFirst = false;
        if (hasHeader) {
          columns = cells.map((c) => HEADER_INDEX.get(norm(c)) ?? null);
          const missing = (['TransactionID', 'ReceiverEmail'] as const).filter((c) => !columns.includes(c));
          if (missing.length > 0) {
            bad.push({
              line,
              index: null,
              transactionId: null,
              reason: { en: `The header has no ${missing.join(' / ')} column.`, vi: `Dòng tiêu đề thiếu cột ${missing.join(' / ')}.` },
            });
            columns = [];
          }
          return;
        }
      }
      if (columns.length === 0) return;
      rows++;
      const quoteError = result.errors.find((e) => e.type === 'Quotes');
      const record: Partial<Record<keyof CleanInput, string>> = {};
      columns.forEach((col, i) => {
        if (col) record[FIELD[col]] = cells[i] ?? '';
      });
      if (quoteError) {
        bad.push({
          line,
          index: null,
          transactionId: record.transactionId?.trim() || null,
          reason: { en: `Broken quotes: ${quoteError.message}.`, vi: `Dấu ngoặc kép không khớp: ${quoteError.message}.` },
        });
        return;
      }
      const checked = checkInput({ ...record, kind });
      if (checked.ok) {
        good.push({ line, input: checked.value });
        if (good.length >= limit) {
          onRows(good);
          good = [];
          limit = Math.min(chunk, limit * RAMP);
        }
      } else bad.push({ line, index: null, transactionId: record.transactionId?.trim() || null, reason: checked.problem });
    },
  });
  if (good.length > 0) onRows(good);
  return { bad, rows };
}

/**
 * A chunk of good rows as the import hands it to the outbox: the rows as the JSONB the outbox's
 * bulk insert binds (`[transactionId, receiverName, receiverEmail, ccEmail, bccEmail, replyEmail,
 * kind]` each; store/jsonb.ts), their line numbers, and whether an invoice appears twice within the
 * chunk. The bytes are a buffer of their own: they move from the reader thread without a copy and
 * SQLite reads them without parsing text.
 */
export interface EncodedRows {
  jsonb: Uint8Array;
  lines: number[];
  repeats: boolean;
}

export function encodeRows(good: ParsedCsv['good']): EncodedRows {
  const seen = new Set<string>();
  let repeats = false;
  for (const { input } of good) if (!repeats) repeats = seen.size === seen.add(input.transactionId).size;
  return { jsonb: rowsJsonb(good.map((g) => g.input)), lines: good.map((g) => g.line), repeats };
}

/** What a message carrying `rows` may move rather than copy: the bytes' memory, when they have it to themselves. */
export function movable(rows: EncodedRows): ArrayBuffer[] {
  const { buffer, byteOffset, byteLength } = rows.jsonb;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && buffer.byteLength === byteLength ? [buffer] : [];
}

/** Entries as EncodedRows' JSONB. */
export function rowsJsonb(inputs: readonly CleanInput[]): Buffer {
  return jsonbRows(inputs.map((i) => [i.transactionId, i.receiverName, i.receiverEmail, i.ccEmail, i.bccEmail, i.replyEmail, i.kind]));
}

export function decodeRows(rows: EncodedRows): ParsedCsv['good'] {
  return readJsonbRows(rows.jsonb).map(([transactionId, receiverName, receiverEmail, ccEmail, bccEmail, replyEmail, kind], k) => ({
    line: rows.lines[k]!,
    input: { transactionId, receiverName, receiverEmail, ccEmail, bccEmail, replyEmail, kind } as CleanInput,
  }));
}

const EXPORT_COLUMNS = [...CSV_COLUMNS, 'Kind', 'State', 'SendEmailStatus', 'ErrorCode', 'Attempts', 'LastError', 'CreatedAt', 'UpdatedAt'];

/** The queue as CSV (see spreadsheetCsv: quoted, formulas neutralised). */
export function exportEmailCsv(entries: readonly EmailEntry[]): string {
  return spreadsheetCsv(
    EXPORT_COLUMNS,
    entries.map((e) => [
      e.transactionId,
      e.receiverName,
      e.receiverEmail,
      e.ccEmail,
      e.bccEmail,
      e.replyEmail,
      e.kind,
      e.state,
      e.sendEmailStatus === null ? '' : String(e.sendEmailStatus),
      e.errorCode ?? '',
      String(e.attempts),
      e.lastError?.en ?? '',
      e.createdAt,
      e.updatedAt,
    ]),
  );
}

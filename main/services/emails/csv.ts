import Papa from 'papaparse';
import type { EmailEntry, EmailReject } from '../../../common/calls/emails';
import type { InvoiceKind } from '../../../common/model';
import { spreadsheetCsv } from '../csv';
import { jsonbRows, JsonbRowsWriter, readJsonbRows } from '../store/jsonb';
import { checkInput, type CleanInput } from './input';

/** The import columns, in their default order (used when a file has no header line). */
export const CSV_COLUMNS = ['TransactionID', 'ReceiverName', 'ReceiverEmail', 'CCEmail', 'BCCEmail', 'ReplyEmail'] as const;
type Column = (typeof CSV_COLUMNS)[number];

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
const blank = (cell: string) => cell.trim() === '';
const found = (at: number) => (at === -1 ? Infinity : at);
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
  const { bad, rows } = readEmailCsv(text, kind, (chunk) => {
    for (const row of decodeRows(chunk)) good.push(row);
  });
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
 * parser reaches them (in file order), encoded as they are checked (EncodedRows), so a chunk is
 * held as bytes rather than as rows. With a smaller `first`, the chunks grow from it twofold each
 * time up to `chunk`: a reader on another thread then keeps ahead of the database from the start
 * instead of making it wait for a full chunk after the first.
 */
export function readEmailCsv(text: string, kind: InvoiceKind, onRows: (rows: EncodedRows) => void, chunk = CSV_CHUNK, first = chunk): CsvReadEnd {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const writer = new JsonbRowsWriter();
  let lines: number[] = [];
  let seen = new Set<string>();
  let repeats = false;
  let limit = first;
  const flush = () => {
    onRows({ jsonb: writer.take(), lines, repeats });
    lines = [];
    seen = new Set();
    repeats = false;
  };
  const bad: EmailReject[] = [];
  const firstLineEnd = body.search(/\r?\n/);
  const firstLine = firstLineEnd === -1 ? body : body.slice(0, firstLineEnd);
  const firstCells = firstLine.split(/[,;]/).map(norm);
  const hasHeader = firstCells.some((c) => HEADER_INDEX.has(c));
  const delimiter = countOutsideQuotes(firstLine, ';') > countOutsideQuotes(firstLine, ',') ? ';' : ',';

  /** Where each of CSV_COLUMNS is among a row's cells (the last cell so named), -1 where it is not. */
  let cellOf: number[] = CSV_COLUMNS.map((_, i) => i);
  let rows = 0;
  let prevCursor = 0;
  let lineAt = 1; // line number at prevCursor
  let nextBreak = -1; // where the next line break after the rows read so far is (Infinity: none)
  let isFirst = true;

  Papa.parse<string[]>(body, {
    delimiter,
    skipEmptyLines: true,
    step: (result) => {
      const cursor = result.meta.cursor;
      // Lines end in \r\n or \n (counted by their \n), or in \r alone (old Mac files).
      const breakChar = result.meta.linebreak === '\r' ? '\r' : '\n';
      const br = breakChar.charCodeAt(0);
      // The row starts at the first character after the previous row that is not a line break or a blank.
      let start = prevCursor;
      let line = lineAt;
      for (; start < cursor; start++) {
        const c = body.charCodeAt(start);
        if (c === br) line++;
        else if (c !== 13 && c !== 10 && c !== 32 && c !== 9) break;
      }
      let end = line;
      // Line breaks inside the row (quoted cells) and at its end; the next one is remembered, so the text is searched once.
      if (nextBreak < start) nextBreak = found(body.indexOf(breakChar, start));
      for (; nextBreak < cursor; nextBreak = found(body.indexOf(breakChar, nextBreak + 1))) end++;
      prevCursor = cursor;
      lineAt = end;

      const cells = result.data;
      // A line of blanks and delimiters only is skipped, as an empty one is.
      if (cells.every(blank)) return;
      if (isFirst) {
        isFirst = false;
        if (hasHeader) {
          const columns = cells.map((c) => HEADER_INDEX.get(norm(c)) ?? null);
          cellOf = CSV_COLUMNS.map((c) => columns.lastIndexOf(c));
          const missing = (['TransactionID', 'ReceiverEmail'] as const).filter((c) => !columns.includes(c));
          if (missing.length > 0) {
            bad.push({
              line,
              index: null,
              transactionId: null,
              reason: { en: `The header has no ${missing.join(' / ')} column.`, vi: `Dòng tiêu đề thiếu cột ${missing.join(' / ')}.` },
            });
            cellOf = [];
          }
          return;
        }
      }
      if (cellOf.length === 0) return;
      rows++;
      const cell = (k: number): string | undefined => (cellOf[k]! < 0 ? undefined : (cells[cellOf[k]!] ?? ''));
      const quoteError = result.errors.find((e) => e.type === 'Quotes');
      if (quoteError) {
        bad.push({
          line,
          index: null,
          transactionId: cell(0)?.trim() || null,
          reason: { en: `Broken quotes: ${quoteError.message}.`, vi: `Dấu ngoặc kép không khớp: ${quoteError.message}.` },
        });
        return;
      }
      const checked = checkInput({
        transactionId: cell(0),
        receiverName: cell(1),
        receiverEmail: cell(2),
        ccEmail: cell(3),
        bccEmail: cell(4),
        replyEmail: cell(5),
        kind,
      });
      if (checked.ok) {
        const input = checked.value;
        writer.push(rowOf(input));
        lines.push(line);
        if (!repeats) repeats = seen.size === seen.add(input.transactionId).size;
        if (lines.length >= limit) {
          flush();
          limit = Math.min(chunk, limit * RAMP);
        }
      } else bad.push({ line, index: null, transactionId: cell(0)?.trim() || null, reason: checked.problem });
    },
  });
  if (lines.length > 0) flush();
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

/** What a message carrying `rows` may move rather than copy: the bytes' memory, when they have it to themselves. */
export function movable(rows: EncodedRows): ArrayBuffer[] {
  const { buffer, byteOffset, byteLength } = rows.jsonb;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && buffer.byteLength === byteLength ? [buffer] : [];
}

/** An entry as a row of EncodedRows' JSONB. */
const rowOf = (i: CleanInput): string[] => [i.transactionId, i.receiverName, i.receiverEmail, i.ccEmail, i.bccEmail, i.replyEmail, i.kind];

/** Entries as EncodedRows' JSONB. */
export function rowsJsonb(inputs: readonly CleanInput[]): Buffer {
  return jsonbRows(inputs.map(rowOf));
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

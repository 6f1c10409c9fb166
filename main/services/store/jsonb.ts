/**
 * Rows of strings as SQLite's binary JSON (JSONB): a bulk statement reads them with
 * `jsonb_each(?)` and `value ->> k` without parsing any text, and writing them here costs a
 * fraction of JSON.stringify and the UTF-8 copy of its result. Each element is a header (its
 * type in the low 4 bits; in the high 4 bits 12, 13 or 14 for a size in the next 1, 2 or 4
 * bytes, big-endian) and its payload. Strings are stored raw (TEXTRAW: quotes, backslashes and
 * control characters as they are); SQLite accepts a header larger than the size needs, so a
 * string's header is chosen from its length in UTF-16 units before its bytes are known.
 */

const TEXTRAW = 0x0a;
const ARRAY = 0x0b;
/** A header's high 4 bits for a size held in the next 1, 2 or 4 bytes. */
const SIZE_CODE: Record<number, number> = { 1: 12, 2: 13, 4: 14 };

/** UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_PER_UNIT = 3;

/** How many bytes a header needs for a size up to `max`. */
const sizeWidth = (max: number): number => (max <= 0xff ? 1 : max <= 0xffff ? 2 : 4);

function writeHeader(buf: Buffer, at: number, type: number, width: number, size: number): void {
  buf[at] = (SIZE_CODE[width]! << 4) | type;
  buf.writeUIntBE(size, at + 1, width);
}

/**
 * `rows` as one JSONB array of arrays of strings, in a buffer of its own (never a slice of Node's
 * shared pool), so it can be moved to another thread. A lone surrogate becomes U+FFFD, as in
 * every string Node writes as UTF-8 (Buffer, TextEncoder, a string bound by node:sqlite).
 */
export function jsonbRows(rows: readonly (readonly string[])[]): Buffer {
  let bound = 5;
  for (const row of rows) {
    bound += 5;
    for (const s of row) bound += 5 + s.length * MAX_UTF8_PER_UNIT;
  }
  const buf = Buffer.allocUnsafeSlow(bound);
  let at = 5;
  for (const row of rows) {
    const rowAt = at;
    at += 5;
    for (const s of row) {
      const width = sizeWidth(s.length * MAX_UTF8_PER_UNIT);
      const n = buf.write(s, at + 1 + width, 'utf8');
      writeHeader(buf, at, TEXTRAW, width, n);
      at += 1 + width + n;
    }
    writeHeader(buf, rowAt, ARRAY, 4, at - rowAt - 5);
  }
  writeHeader(buf, 0, ARRAY, 4, at - 5);
  if (at === bound) return buf;
  // Mostly ASCII text takes a third of the bound: keep only what was written.
  const exact = Buffer.allocUnsafeSlow(at);
  buf.copy(exact, 0, 0, at);
  return exact;
}

/** Reads one element's header at `at`: its type, where its payload starts and where it ends (Buffer's reads throw past the end). */
function element(buf: Buffer, at: number): { type: number; start: number; end: number } {
  const head = buf.readUInt8(at);
  const sizeCode = head >> 4;
  if (sizeCode === 15) throw new Error('JSONB element too large');
  const width = sizeCode < 12 ? 0 : 2 ** (sizeCode - 12);
  const size = width === 0 ? sizeCode : buf.readUIntBE(at + 1, width);
  const start = at + 1 + width;
  const end = start + size;
  if (end > buf.byteLength) throw new Error('JSONB element runs past the end');
  return { type: head & 0x0f, start, end };
}

/** The rows of jsonbRows' JSONB (only arrays of arrays of strings: what it writes). */
export function readJsonbRows(bytes: Uint8Array): string[][] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const outer = element(buf, 0);
  if (outer.type !== ARRAY || outer.end !== buf.byteLength) throw new Error('not a JSONB array');
  const rows: string[][] = [];
  for (let at = outer.start; at < outer.end;) {
    const row = element(buf, at);
    if (row.type !== ARRAY || row.end > outer.end) throw new Error('a JSONB row is not an array');
    const cells: string[] = [];
    for (let c = row.start; c < row.end;) {
      const cell = element(buf, c);
      if (cell.type !== TEXTRAW || cell.end > row.end) throw new Error('a JSONB cell is not raw text');
      cells.push(buf.toString('utf8', cell.start, cell.end));
      c = cell.end;
    }
    rows.push(cells);
    at = row.end;
  }
  return rows;
}

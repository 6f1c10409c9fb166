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
  if (width === 1) buf[at + 1] = size;
  else if (width === 2) {
    buf[at + 1] = size >>> 8;
    buf[at + 2] = size & 0xff;
  } else buf.writeUInt32BE(size, at + 1);
}

/**
 * Rows of strings written one at a time into one JSONB array of arrays, in a buffer that grows as
 * needed, so a caller holds bytes rather than the rows. A lone surrogate becomes U+FFFD, as in
 * every string Node writes as UTF-8 (Buffer, TextEncoder, a string bound by node:sqlite).
 */
export class JsonbRowsWriter {
  private buf: Buffer;
  private at = 5;

  constructor(capacity = 4096) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(capacity, 5));
  }

  push(row: readonly string[]): void {
    let bound = 5;
    for (const s of row) bound += 5 + s.length * MAX_UTF8_PER_UNIT;
    if (this.at + bound > this.buf.length) this.grow(this.at + bound);
    const buf = this.buf;
    const rowAt = this.at;
    let at = rowAt + 5;
    for (const s of row) {
      const width = sizeWidth(s.length * MAX_UTF8_PER_UNIT);
      const start = at + 1 + width;
      // ASCII is copied here (most cells are), sparing a call into Node per cell.
      let n = 0;
      while (n < s.length) {
        const c = s.charCodeAt(n);
        if (c >= 0x80) break;
        buf[start + n++] = c;
      }
      if (n < s.length) n = buf.write(s, start, 'utf8');
      writeHeader(buf, at, TEXTRAW, width, n);
      at = start + n;
    }
    writeHeader(buf, rowAt, ARRAY, 4, at - rowAt - 5);
    this.at = at;
  }

  /**
   * The array of the rows written since the last take(), in a buffer of its own (never a slice of
   * Node's shared pool), so it can be moved to another thread; the writer starts empty again.
   */
  take(): Buffer {
    writeHeader(this.buf, 0, ARRAY, 4, this.at - 5);
    const exact = Buffer.allocUnsafeSlow(this.at);
    this.buf.copy(exact, 0, 0, this.at);
    this.at = 5;
    return exact;
  }

  private grow(needed: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(needed, this.buf.length * 2));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}

/** `rows` as one JSONB array of arrays of strings (see JsonbRowsWriter). */
export function jsonbRows(rows: readonly (readonly string[])[]): Buffer {
  const writer = new JsonbRowsWriter();
  for (const row of rows) writer.push(row);
  return writer.take();
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

import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonbRows, readJsonbRows } from '../../../main/services/store/jsonb';

const db = new DatabaseSync(':memory:');
afterAll(() => db.close());

/** Strings of whole characters (no lone surrogates), short and long, with quotes, backslashes and control characters. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', 'ắ', 'a', '😀'), maxLength: 120 }),
  fc.string({ unit: 'binary', minLength: 80, maxLength: 300 }),
);
const rows = fc.array(fc.array(text, { maxLength: 8 }), { maxLength: 20 });

describe('jsonbRows', () => {
  it('is read back as the same rows, by SQLite (as JSON and cell by cell) and by readJsonbRows', () => {
    const cells = db.prepare('SELECT r.key AS row, c.key AS col, c.value AS value FROM jsonb_each(?) AS r, jsonb_each(r.value) AS c ORDER BY r.key, c.key');
    fc.assert(
      fc.property(rows, (given) => {
        const bytes = jsonbRows(given);
        expect((db.prepare('SELECT json_valid(?, 8) AS ok').get(bytes) as { ok: number }).ok).toBe(1);
        expect((db.prepare('SELECT json(?) AS j').get(bytes) as { j: string }).j).toBe(JSON.stringify(given));
        const read: Array<Array<string | null>> = given.map((row) => row.map(() => null));
        for (const c of cells.all(bytes) as Array<{ row: number; col: number; value: string }>) read[c.row]![c.col] = c.value;
        expect(read).toEqual(given);
        expect(readJsonbRows(bytes)).toEqual(given);
      }),
      { numRuns: 300 },
    );
  });

  it('takes a string at each header size (1, 2 and 4 size bytes) and a lone surrogate as U+FFFD', () => {
    const given = [
      ['a'.repeat(85), 'b'.repeat(86), 'ắ'.repeat(21_845), 'c'.repeat(21_846), 'ắ'.repeat(86)],
      ['x\ud800y', ''],
    ];
    const bytes = jsonbRows(given);
    const expected = [given[0]!, ['x\ufffdy', '']];
    expect((db.prepare('SELECT json_valid(?, 8) AS ok').get(bytes) as { ok: number }).ok).toBe(1);
    expect((db.prepare('SELECT json(?) AS j').get(bytes) as { j: string }).j).toBe(JSON.stringify(expected));
    expect(readJsonbRows(bytes)).toEqual(expected);
    // Each cell's header: its size in 1 byte up to 85 UTF-16 units (255 bytes at most), in 2 up to 21 845, else in 4.
    const cells = [10, 10 + 2 + 85, 97 + 3 + 86, 186 + 3 + 3 * 21_845, 65_724 + 5 + 21_846];
    expect(cells.map((at) => bytes[at])).toEqual([0xca, 0xda, 0xda, 0xea, 0xda]);
    expect(bytes.readUInt16BE(cells[4]! + 1)).toBe(3 * 86);
  });

  it('writes an empty list of rows', () => {
    const bytes = jsonbRows([]);
    expect((db.prepare('SELECT json(?) AS j').get(bytes) as { j: string }).j).toBe('[]');
    expect(readJsonbRows(bytes)).toEqual([]);
  });

  it('is a buffer of its own, sized to what it holds', () => {
    const bytes = jsonbRows([['TX1', 'Khách', 'a@b.vn']]);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('refuses bytes it did not write', () => {
    expect(() => readJsonbRows(Buffer.from('[["a"]]'))).toThrow();
    expect(() => readJsonbRows(jsonbRows([['abc']]).subarray(0, 8))).toThrow();
    // A header cut short at the very end.
    expect(() => readJsonbRows(Buffer.from([0xeb, 0, 0, 0, 1, 0xcb]))).toThrow();
  });
});

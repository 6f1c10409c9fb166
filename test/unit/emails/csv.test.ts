import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { failedItemsCsv } from '../../../main/services/downloads/csv';
import { decodeRows, exportEmailCsv, movable, parseEmailCsv, readEmailCsv, type EncodedRows } from '../../../main/services/emails/csv';
import type { EmailEntry } from '../../../common/calls/emails';

describe('parseEmailCsv', () => {
  it('reads a comma file with BOM, quoted lists, and reports bad rows with their line', () => {
    const text =
      '\uFEFFTransactionID,ReceiverName,ReceiverEmail,CCEmail,BCCEmail,ReplyEmail\r\n' +
      'TX1,Nguyễn Văn An,"a@x.vn, b@y.vn",,,\r\n' +
      'TX2,Bad,not-an-email,,,\r\n' +
      '\r\n' +
      ',No id,c@x.vn,,,\r\n' +
      'TX3,"Trần, Thị ""B""",c@x.vn,d@x.vn;e@x.vn,f@x.vn,reply@x.vn\r\n';
    const r = parseEmailCsv(text, 'withCode');
    expect(r.rows).toBe(4);
    expect(r.good.map((g) => [g.line, g.input.transactionId, g.input.receiverEmail])).toEqual([
      [2, 'TX1', 'a@x.vn;b@y.vn'],
      [6, 'TX3', 'c@x.vn'],
    ]);
    expect(r.good[1]!.input).toMatchObject({
      receiverName: 'Trần, Thị "B"',
      ccEmail: 'd@x.vn;e@x.vn',
      bccEmail: 'f@x.vn',
      replyEmail: 'reply@x.vn',
      kind: 'withCode',
    });
    expect(r.good[0]!.input.receiverName).toBe('Nguyễn Văn An');
    expect(r.bad.map((b) => [b.line, b.transactionId])).toEqual([
      [3, 'TX2'],
      [5, null],
    ]);
    expect(r.bad[0]!.reason.en).toContain('not-an-email');
    expect(r.bad[0]!.reason.vi).toContain('không hợp lệ');
  });

  it('reads a semicolon file without BOM, columns in another order, a quoted line break', () => {
    const text = 'ReceiverEmail;TransactionID;ReceiverName\n"a@x.vn,b@x.vn";TX1;"Line\nbreak"\nc@x.vn;TX2;C\n';
    const r = parseEmailCsv(text, 'cashRegister');
    expect(r.good.map((g) => [g.line, g.input.transactionId, g.input.receiverEmail])).toEqual([
      [2, 'TX1', 'a@x.vn;b@x.vn'],
      [4, 'TX2', 'c@x.vn'],
    ]);
    expect(r.good[0]!.input.kind).toBe('cashRegister');
  });

  it('skips lines of blanks or delimiters only, and the lines after them keep their numbers', () => {
    const text = 'TransactionID;ReceiverEmail\r\n;\r\nTX1;a@x.vn\r\n   \r\n\r\n ; \r\nTX2;"b@x.vn,\r\nc@x.vn"\r\nTX3;bad\r\n';
    const r = parseEmailCsv(text, 'withCode');
    expect(r.rows).toBe(3);
    expect(r.good.map((g) => [g.line, g.input.transactionId, g.input.receiverEmail])).toEqual([
      [3, 'TX1', 'a@x.vn'],
      [7, 'TX2', 'b@x.vn;c@x.vn'],
    ]);
    expect(r.bad.map((b) => [b.line, b.transactionId])).toEqual([[9, 'TX3']]);
  });

  it('numbers the lines of a file whose lines end in a carriage return alone', () => {
    const r = parseEmailCsv('TransactionID,ReceiverEmail\rTX1,a@x.vn\r\rTX2,"b@x.vn,\rc@x.vn"\rTX3,bad\r', 'withCode');
    expect(r.good.map((g) => [g.line, g.input.transactionId, g.input.receiverEmail])).toEqual([
      [2, 'TX1', 'a@x.vn'],
      [4, 'TX2', 'b@x.vn;c@x.vn'],
    ]);
    expect(r.bad.map((b) => [b.line, b.transactionId])).toEqual([[6, 'TX3']]);
  });

  it('a header naming a column twice reads the last one', () => {
    const r = parseEmailCsv('TransactionID,ReceiverEmail,ReceiverEmail\nTX1,bad,a@x.vn\n', 'withCode');
    expect(r.good.map((g) => g.input.receiverEmail)).toEqual(['a@x.vn']);
  });

  it('a header without the required columns is one bad line', () => {
    const r = parseEmailCsv('TransactionID,Name\nTX1,x\n', 'withCode');
    expect(r.good).toHaveLength(0);
    expect(r.bad).toHaveLength(1);
    expect(r.bad[0]!.line).toBe(1);
  });
});

describe('exportEmailCsv', () => {
  it('round-trips through the importer and neutralises formulas', () => {
    const entry: EmailEntry = {
      id: 1,
      transactionId: 'TX1',
      receiverName: '=HYPERLINK("x")',
      receiverEmail: 'a@x.vn;b@x.vn',
      ccEmail: '',
      bccEmail: '',
      replyEmail: '',
      kind: 'withCode',
      state: 'failed',
      sendEmailStatus: 2,
      errorCode: 'InvalidEmail',
      retryable: false,
      attempts: 1,
      nextAttemptAt: null,
      lastError: { en: 'bad, address', vi: 'bad, address' },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      doneAt: null,
    };
    const csv = exportEmailCsv([entry]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(csv.slice(1).trim()).data;
    expect(rows[1]![1]).toBe('\'=HYPERLINK("x")');
    expect(rows[1]![7]).toBe('failed');
    const back = parseEmailCsv(csv, 'withCode');
    expect(back.good.map((g) => g.input.receiverEmail)).toEqual(['a@x.vn;b@x.vn']);
  });
});

describe('headerless files', () => {
  it('use the default column order', () => {
    const r = parseEmailCsv('TX9;Ann;a@x.vn\n', 'withoutCode');
    expect(r.good.map((g) => [g.line, g.input.transactionId, g.input.receiverName])).toEqual([[1, 'TX9', 'Ann']]);
  });
});

describe('address lists inside fields', () => {
  it('the other separator inside an unquoted field stays in the field', () => {
    const semi = parseEmailCsv('TransactionID;ReceiverName;ReceiverEmail\nTX1;An;a@x.vn,b@x.vn\n', 'withCode');
    expect(semi.good[0]!.input.receiverEmail).toBe('a@x.vn;b@x.vn');
    const comma = parseEmailCsv('TransactionID,ReceiverName,ReceiverEmail\nTX1,An,a@x.vn;b@x.vn; c@x.vn\n', 'withCode');
    expect(comma.good[0]!.input.receiverEmail).toBe('a@x.vn;b@x.vn;c@x.vn');
  });
  it('a duplicate address is kept once', () => {
    const r = parseEmailCsv('TransactionID,ReceiverEmail\nTX1,"a@x.vn, A@x.vn"\n', 'withCode');
    expect(r.good[0]!.input.receiverEmail).toBe('a@x.vn');
  });
});

describe('spreadsheet exports are safe', () => {
  const DANGER = ['=1+2', '+31 555', '-2+3', '@SUM(A1)', '\t=cmd', '\r=cmd', '=HYPERLINK("x")\nsecond line'];

  /** Every cell of the rows (after the header) whose text started with a formula character. */
  function checkCells(csv: string, originals: readonly string[][]): void {
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data.slice(1);
    expect(rows).toHaveLength(originals.length);
    originals.forEach((row, r) =>
      row.forEach((value, c) => {
        const cell = rows[r]![c];
        if (/^[=+\-@\t\r]/.test(value)) expect(cell, `row ${r} column ${c}`).toBe(`'${value}`);
        else expect(cell, `row ${r} column ${c}`).toBe(value);
      }),
    );
    // Quoted by the CSV library: every cell of every data line starts with a quote.
    expect(
      csv
        .slice(1)
        .split('\r\n')
        .filter((l) => l !== '')
        .every((l) => l.startsWith('"')),
    ).toBe(true);
  }

  it('every cell of every CSV the app writes is neutralised when it starts with =, +, -, @, tab or CR, and quoted', () => {
    const entries: EmailEntry[] = DANGER.map((d, i) => ({
      id: i + 1,
      transactionId: d,
      receiverName: d,
      receiverEmail: d,
      ccEmail: d,
      bccEmail: d,
      replyEmail: d,
      kind: 'withCode',
      state: 'failed',
      sendEmailStatus: 2,
      errorCode: d,
      retryable: false,
      attempts: 1,
      nextAttemptAt: null,
      lastError: { en: d, vi: d },
      createdAt: d,
      updatedAt: d,
      doneAt: null,
    }));
    checkCells(
      exportEmailCsv(entries),
      DANGER.map((d) => [d, d, d, d, d, d, 'withCode', 'failed', '2', d, '1', d, d, d]),
    );
    checkCells(
      failedItemsCsv(DANGER.map((d) => ({ transactionId: d, errorCode: d, message: { en: d, vi: d } }))),
      DANGER.map((d) => [d, d, d, d]),
    );
  });
});

describe('reading in chunks', () => {
  const file = (n: number) =>
    `TransactionID;ReceiverName;ReceiverEmail\n${Array.from({ length: n }, (_, i) => `TX${i};Khách "số" ${i};k${i}@example.com`).join('\n')}\n`;

  it('grows the chunks twofold from a small first one up to the full size, every row once and in order', () => {
    const sizes: number[] = [];
    const ids: string[] = [];
    readEmailCsv(
      file(100),
      'withCode',
      (rows) => {
        sizes.push(rows.lines.length);
        ids.push(...decodeRows(rows).map((g) => g.input.transactionId));
      },
      20,
      2,
    );
    expect(sizes).toEqual([2, 4, 8, 16, 20, 20, 20, 10]);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => `TX${i}`));
  });

  it('hands each chunk on as JSONB that decodes to its rows and lines, in a buffer of its own that is moved', () => {
    const chunks: EncodedRows[] = [];
    readEmailCsv(file(3000), 'withCode', (rows) => chunks.push(rows), 2990, 2990);
    expect(chunks.map((c) => c.lines.length)).toEqual([2990, 10]);
    const good = chunks.flatMap((c) => decodeRows(c));
    expect(good.map((g) => g.line)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 2));
    expect(good[5]!.input).toEqual({
      transactionId: 'TX5',
      receiverName: 'Khách "số" 5',
      receiverEmail: 'k5@example.com',
      ccEmail: '',
      bccEmail: '',
      replyEmail: '',
      kind: 'withCode',
    });
    expect(good[2999]!.input.transactionId).toBe('TX2999');
    expect(chunks.map((c) => c.repeats)).toEqual([false, false]);
    const twice: EncodedRows[] = [];
    readEmailCsv('TransactionID;ReceiverEmail\nTX1;a@x.vn\nTX2;b@x.vn\nTX1;c@x.vn\nTX1;d@x.vn\nTX3;e@x.vn\n', 'withCode', (rows) => twice.push(rows), 3, 3);
    expect(twice.map((c) => [c.lines, c.repeats])).toEqual([
      [[2, 3, 4], true],
      [[5, 6], false],
    ]);
    // Even a small chunk's bytes are their own, not a slice of Node's shared pool, so they move.
    expect(movable(chunks[0]!)).toEqual([chunks[0]!.jsonb.buffer]);
    expect(chunks[1]!.jsonb.byteLength).toBeLessThan(4096);
    expect(movable(chunks[1]!)).toEqual([chunks[1]!.jsonb.buffer]);
    // A slice of a larger buffer stays where it is.
    expect(movable({ ...chunks[1]!, jsonb: Buffer.from('x'.repeat(100)) })).toEqual([]);
  });
});

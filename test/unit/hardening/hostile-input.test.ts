import path from 'node:path';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyDraft, type InvoiceDraft } from '../../../common/money/draft';
import { computeInvoice } from '../../../common/money';
import { validateDraft } from '../../../common/validation';
import { Catalogues } from '../../../main/services/catalogues/catalogues';
import { parseIdsText } from '../../../common/rules/transaction-ids';
import { readZipSafely, ZipRefused } from '../../../main/services/downloads/zip';
import { parseEmailCsv } from '../../../main/services/emails/csv';
import { openDatabase } from '../../../main/services/store';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';

/**
 * Hostile-input fuzzing of what users and the service hand us as text or bytes:
 * CSV imports (email queue, catalogues, download IDs), draft validation and zip extraction.
 * Each property states what must hold, not only "does not throw". (The envelope reader and the
 * file-name sanitiser have their own properties in test/unit/envelope and test/unit/downloads.)
 */
const RUNS = 400;
let cases = 0;
const counted = <T>(arb: fc.Arbitrary<T>) => arb.map((v) => ((cases += 1), v));
afterAll(() => recordHardening('hostile-input', { fuzzCases: cases }));

const cell = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '"',
    '""',
    ';',
    ',',
    '\n',
    '\r\n',
    '\uFEFF',
    'a@b.vn',
    'x@y.vn;z@w.vn',
    'x@y.vn, z@w.vn',
    'not-an-email',
    'TX-001',
    'Nguyễn Văn A',
    '=CMD()',
  ),
);
const csvText = (delimiter: ',' | ';') =>
  fc
    .tuple(fc.boolean(), fc.boolean(), fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 12 }))
    .map(
      ([bom, header, rows]) =>
        (bom ? '\uFEFF' : '') +
        (header ? ['TransactionID', 'ReceiverName', 'ReceiverEmail', 'CCEmail', 'BCCEmail', 'ReplyEmail'].join(delimiter) + '\n' : '') +
        rows.map((r) => r.join(delimiter)).join('\n'),
    );

describe('email queue CSV import', () => {
  it('never throws, accounts for every row, and only lets through rows with valid addresses', () => {
    fc.assert(
      fc.property(
        counted(fc.oneof(csvText(','), csvText(';'), fc.string({ maxLength: 300 }))),
        fc.constantFrom('withCode', 'withoutCode', 'cashRegister' as const),
        (text, kind) => {
          const parsed = parseEmailCsv(text, kind);
          // Every data row ends up good or bad (a bad header is one more, reported on line 1).
          expect(parsed.good.length + parsed.bad.length - parsed.rows).toBeGreaterThanOrEqual(0);
          expect(parsed.good.length).toBeLessThanOrEqual(parsed.rows);
          for (const bad of parsed.bad) {
            expect(bad.line).toBeGreaterThanOrEqual(1);
            expect(bad.reason.en.length).toBeGreaterThan(0);
            expect(bad.reason.vi.length).toBeGreaterThan(0);
          }
          for (const good of parsed.good) {
            const input = good.input as { transactionId: string; receiverEmail: string };
            expect(input.transactionId.trim()).not.toBe('');
            expect(input.receiverEmail).not.toMatch(/,|\s;|;\s/);
            for (const address of input.receiverEmail.split(';')) expect(address).toMatch(/^[^\s@]+@[^\s@]+$/);
          }
          // A bad row never hides a good one: every line number is reported at most once.
          const lines = [...parsed.good.map((g) => g.line), ...parsed.bad.map((b) => b.line)];
          expect(new Set(lines).size).toBe(lines.length);
        },
      ),
      { numRuns: RUNS, seed: 1 },
    );
  });

  it('keeps every good row when bad rows are mixed in', () => {
    fc.assert(
      fc.property(counted(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 })), (pattern) => {
        const rows = pattern.map((good, i) => (good ? `TX-${i},Khách ${i},khach${i}@cuahang.vn` : `TX-${i},Khách ${i},khong-phai-email`));
        const parsed = parseEmailCsv(['TransactionID,ReceiverName,ReceiverEmail', ...rows].join('\r\n'), 'withCode');
        expect(parsed.good.map((g) => (g.input as { transactionId: string }).transactionId)).toEqual(pattern.flatMap((good, i) => (good ? [`TX-${i}`] : [])));
        expect(parsed.bad.map((b) => b.line)).toEqual(pattern.flatMap((good, i) => (good ? [] : [i + 2])));
      }),
      { numRuns: RUNS / 4, seed: 2 },
    );
  });
});

describe('download ID lists (pasted or imported)', () => {
  it('never throws; yields unique, trimmed, non-empty IDs and counts what it dropped', () => {
    fc.assert(
      fc.property(
        counted(
          fc.oneof(
            fc.string({ maxLength: 400 }),
            csvText(','),
            fc.array(cell, { maxLength: 40 }).map((a) => a.join('\n')),
          ),
        ),
        (text) => {
          const parsed = parseIdsText(text, 'ids.csv');
          expect(new Set(parsed.ids).size).toBe(parsed.ids.length);
          for (const id of parsed.ids) {
            expect(id).toBe(id.trim());
            expect(id).not.toBe('');
          }
          expect(parsed.duplicates).toBeGreaterThanOrEqual(0);
          expect(parsed.blanks).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: RUNS, seed: 3 },
    );
  });
});

describe('catalogue CSV import', () => {
  const temp = makeTempDir();
  const store = openDatabase(temp.dir);
  const catalogues = new Catalogues(store);
  afterAll(() => {
    store.close();
    temp.cleanup();
  });

  it('never throws, reports problems by row, and leaves the database consistent', () => {
    fc.assert(
      fc.property(counted(fc.oneof(csvText(','), csvText(';'), fc.string({ maxLength: 300 }))), fc.constantFrom('items', 'buyers' as const), (text, kind) => {
        const before = (store.db.prepare(`SELECT count(*) AS n FROM ${kind === 'items' ? 'catalogue_items' : 'catalogue_buyers'}`).get() as { n: number }).n;
        const result = catalogues.importCsv(kind, text);
        const after = (store.db.prepare(`SELECT count(*) AS n FROM ${kind === 'items' ? 'catalogue_items' : 'catalogue_buyers'}`).get() as { n: number }).n;
        expect(after).toBeGreaterThanOrEqual(before);
        expect(after - before).toBeLessThanOrEqual(result.imported);
        for (const p of result.problems) {
          expect(p.row).toBeGreaterThanOrEqual(1);
          expect(p.message.en && p.message.vi).toBeTruthy();
        }
      }),
      { numRuns: RUNS / 2, seed: 4 },
    );
    expect((store.db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check).toBe('ok');
  });
});

describe('draft validation', () => {
  const moneyText = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', '0', '-1', '1e3', '1,5', '1.5', '999999999999999999', 'NaN', 'Infinity', ' 12 ', '١٢'),
  );
  const line = fc.record({
    ItemType: fc.integer({ min: -2, max: 9 }),
    ItemCode: fc.string({ maxLength: 8 }),
    ItemName: fc.string({ maxLength: 16 }),
    UnitName: fc.string({ maxLength: 6 }),
    Quantity: moneyText,
    UnitPrice: moneyText,
    DiscountRate: moneyText,
    DiscountAmountOC: moneyText,
    discountBy: fc.constantFrom('rate', 'amount'),
    VATRateName: fc.oneof(fc.constantFrom('0%', '5%', '8%', '10%', 'KCT', 'KKKNT', 'KHAC:3.5%', 'KHAC7%', '12%', ''), fc.string({ maxLength: 8 })),
  });
  const draft = fc
    .record({
      lines: fc.array(line, { maxLength: 12 }),
      BuyerTaxCode: fc.oneof(fc.string({ maxLength: 14 }), fc.constantFrom('0101243150', '0101243150-001', '001099012345', '')),
      BuyerEmail: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('a@b.vn', 'a@b.vn;c@d.vn', '')),
      InvSeries: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('1C26TAA', '2K25TBB', '')),
      InvDate: fc.oneof(fc.constantFrom('2026-11-21', '2026-02-30', ''), fc.string({ maxLength: 10 })),
      CurrencyCode: fc.constantFrom('VND', 'USD', 'JPY', 'XXX', ''),
      ExchangeRate: moneyText,
    })
    .map((r) => ({ ...emptyDraft({ RefID: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', InvDate: '2026-11-21' }), ...r }) as unknown as InvoiceDraft);

  it('never throws, locates every problem, and keeps the totals consistent whatever is typed', () => {
    fc.assert(
      fc.property(counted(draft), (d) => {
        const result = validateDraft(d, { now: new Date('2026-11-21T03:00:00Z') });
        for (const p of result.problems) {
          expect(typeof p.path).toBe('string');
          expect(p.message.length).toBeGreaterThan(0);
          expect(p.messageVi.length).toBeGreaterThan(0);
          const index = /^lines\[(\d+)\]/.exec(p.path);
          if (index) expect(Number(index[1])).toBeLessThan(d.lines.length);
        }
        const { totals, taxRates } = computeInvoice(d);
        const t = totals as unknown as Record<string, { toString(): string } | number | string>;
        const num = (v: unknown) => Number(String(v));
        expect(num(t.TotalAmountOC)).toBeCloseTo(num(t.TotalAmountWithoutVATOC) + num(t.TotalVATAmountOC), 6);
        expect(taxRates.length).toBeLessThanOrEqual(d.lines.length);
      }),
      { numRuns: RUNS, seed: 5 },
    );
  });
});

describe('zip extraction', () => {
  const folder = path.resolve('/tmp/einvoice-extract-target');
  const entryName = fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constantFrom(
      '../evil.txt',
      '..\\evil.txt',
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'C:evil',
      'a/../../b',
      'ok/../../x',
      './a.xml',
      'a\\b\\c.pdf',
      'CON',
      'nul.txt',
      'x\u0000y',
      'ok.xml',
      'sub/ok.pdf',
      '....//x',
      ' .. /x',
    ),
  );

  it('extracts only entries that stay inside the folder, or refuses the whole zip', () => {
    fc.assert(
      fc.property(counted(fc.uniqueArray(entryName, { minLength: 1, maxLength: 6, selector: (n) => n.replace(/\\/g, '/') })), (names) => {
        let zip: Uint8Array;
        try {
          zip = zipSync(Object.fromEntries(names.map((n, i) => [n, strToU8(`entry ${i}`)])));
        } catch {
          return; // fflate itself refuses some names; nothing to extract
        }
        try {
          const entries = readZipSafely(zip);
          for (const entry of entries) {
            const target = path.resolve(folder, ...entry.parts);
            expect(target.startsWith(folder + path.sep), target).toBe(true);
            // eslint-disable-next-line no-control-regex -- control characters are exactly what must not survive
            for (const part of entry.parts) expect(part).not.toMatch(/[\u0000-\u001f<>:"|?*\\/]/);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(ZipRefused);
        }
      }),
      { numRuns: RUNS, seed: 6 },
    );
  });

  it('answers random bytes with ZipUnreadable and stops a bomb at the size limit', () => {
    fc.assert(
      fc.property(counted(fc.uint8Array({ maxLength: 600 })), (bytes) => {
        try {
          readZipSafely(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ZipRefused);
        }
      }),
      { numRuns: RUNS, seed: 7 },
    );
    const bomb = zipSync({ 'a.xml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => readZipSafely(bomb, { maxTotalBytes: 1024 * 1024, maxEntries: 10 })).toThrow(expect.objectContaining({ code: 'ZipTooLarge' }));
  });
});

/** The register's list over 100 000 rows in a real SQLite file: filters, text search, paging, and the indexes the queries use. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceKind } from '../../../common/model';
import { RegisterRepository } from '../../../main/services/register';
import { upsertRows, type RegisterRow } from '../../../main/services/register/repository';
import { addDays } from '../../../main/services/register/sync';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

const SERIES: Array<[string, InvoiceKind]> = [
  ['1C26TAA', 'withCode'],
  ['2C26TBB', 'withCode'],
  ['1K26TAA', 'withoutCode'],
  ['1C26MAA', 'cashRegister'],
];
const BUYERS = ['Công ty TNHH Hồ Tây', 'Nguyễn Thị Hồng', 'Cửa hàng Đồng Xuân', 'Trần Văn Nam'];
const N = 100_000;
const PROFILE = 'p1';
const SCOPE = { profileId: PROFILE, service: 'https://hd.example.vn/api|0101243150' };

let tmp: { dir: string; cleanup: () => void };
let store: Store;
let repo: RegisterRepository;

function row(i: number): RegisterRow {
  const [series, kind] = SERIES[i % 4]!;
  return {
    transactionId: `TX${String(i).padStart(7, '0')}`,
    refId: null,
    invSeries: series,
    invNo: String(Math.floor(i / 4) + 1).padStart(8, '0'),
    invDate: addDays('2026-01-01', Math.floor(i / 400)),
    kind,
    buyerName: `${BUYERS[i % BUYERS.length]} ${i % 97}`,
    buyerTaxCode: i % 2 ? `0101${String(i % 1000).padStart(6, '0')}` : '',
    buyerEmail: '',
    currency: 'VND',
    total: String(100_000 + i),
    totalWithoutVat: '0',
    totalVat: '0',
    invoiceCode: null,
    sendTaxStatus: kind === 'withCode' ? 2 : 0,
    eInvoiceStatus: 1,
    referenceType: 0,
    org: null,
  };
}

beforeAll(() => {
  tmp = makeTempDir('einvoice-register-list-');
  store = openDatabase(tmp.dir);
  repo = new RegisterRepository(store);
  const rows = Array.from({ length: N }, (_, i) => row(i));
  store.transaction((db) => upsertRows(db, SCOPE, rows.slice(0, N / 2), 'sync', new Date().toISOString()));
  store.transaction((db) => upsertRows(db, SCOPE, rows.slice(N / 2), 'sync', new Date().toISOString()));
  // As a sync that added many rows leaves it (searches below read the merged index).
  repo.tidySearch();
}, 120_000);
afterAll(() => {
  store?.close();
  tmp?.cleanup();
});

describe('issued.list over 100 000 rows', () => {
  it('a date range gives its rows newest first with the count of all of them; offset pages through', () => {
    const all = repo.list(SCOPE, { from: '2026-02-01', to: '2026-02-10', offset: 0, limit: 50 });
    expect(all.total).toBe(4_000);
    expect(all.items[0]!.invDate).toBe('2026-02-10');
    const next = repo.list(SCOPE, { from: '2026-02-01', to: '2026-02-10', offset: 50, limit: 50 });
    expect(next.items[0]!.transactionId).not.toBe(all.items[0]!.transactionId);
    expect(new Set([...all.items, ...next.items].map((i) => i.transactionId)).size).toBe(100);
  });

  it('a page in the far half (read from the other end) holds the rows the whole list has there, with every filter and a search', () => {
    const queries = [
      { from: '2026-02-01', to: '2026-02-10' },
      { from: '2026-01-01', to: '2026-12-31', series: ['1C26TAA', '1K26TAA'] },
      { from: '2026-01-01', to: '2026-12-31', kind: 'withCode' as const, text: 'ho tay' },
      { from: '2026-03-01', to: '2026-03-31', text: 'hong 5' },
    ];
    for (const q of queries) {
      const { total } = repo.list(SCOPE, { ...q, offset: 0, limit: 1 });
      const whole = repo.list(SCOPE, { ...q, offset: 0, limit: total }).items.map((i) => i.transactionId);
      expect(whole).toHaveLength(total);
      expect(total).toBeGreaterThan(100);
      for (const offset of [Math.floor(total / 2) + 1, total - 77, total - 50, total - 1, total, total + 3]) {
        const page = repo.list(SCOPE, { ...q, offset, limit: 50 });
        expect(page.total).toBe(total);
        expect(
          page.items.map((i) => i.transactionId),
          `${JSON.stringify(q)} from ${offset}`,
        ).toEqual(whole.slice(offset, offset + 50));
      }
    }
  });

  it('rows that share date, series and number keep one order, read from either end', () => {
    const ties = { profileId: PROFILE, service: 'ties|' };
    const kinds: InvoiceKind[] = ['withCode', 'withoutCode', 'cashRegister'];
    const rows = Array.from({ length: 120 }, (_, i) => ({
      ...row(i),
      invDate: '2026-05-0' + (1 + (i % 2)),
      invSeries: '1C26TAA',
      invNo: String(i % 5),
      kind: kinds[i % 3]!,
    }));
    store.transaction((db) => upsertRows(db, ties, rows, 'sync', new Date().toISOString()));
    const range = { from: '2026-05-01', to: '2026-05-02' };
    const whole = repo.list(ties, { ...range, offset: 0, limit: 120 }).items.map((i) => i.transactionId);
    expect(whole).toHaveLength(120);
    for (let offset = 0; offset <= 120; offset += 7) {
      expect(repo.list(ties, { ...range, offset, limit: 10 }).items.map((i) => i.transactionId)).toEqual(whole.slice(offset, offset + 10));
    }
  });

  it('series, kind, buyer text without diacritics, tax code and number', () => {
    const range = { from: '2026-01-01', to: '2026-12-31', offset: 0, limit: 10 };
    expect(repo.list(SCOPE, { ...range, series: ['2C26TBB'] }).total).toBe(N / 4);
    expect(repo.list(SCOPE, { ...range, kind: 'withCode' }).total).toBe(N / 2);
    const hong = repo.list(SCOPE, { ...range, text: 'nguyen thi hong 5' });
    expect(hong.total).toBeGreaterThan(0);
    expect(hong.items.every((i) => i.buyerName.startsWith('Nguyễn Thị Hồng 5'))).toBe(true);
    expect(repo.list(SCOPE, { ...range, text: 'ĐỒNG XUÂN' }).total).toBe(N / 4);
    const byNumber = repo.list(SCOPE, { ...range, series: ['1K26TAA'], text: '00012345' });
    expect(byNumber.items.map((i) => i.invNo)).toEqual(['00012345']);
    expect(repo.list(SCOPE, { ...range, text: '100%_' }).total).toBe(0);
  });

  it('another service’s rows (same profile, same TransactionIDs) are not listed or counted', () => {
    const other = { profileId: PROFILE, service: 'sandbox|' };
    store.transaction((db) => upsertRows(db, other, [row(1), row(2), row(3)], 'sync', new Date().toISOString()));
    const range = { from: '2026-01-01', to: '2026-12-31', offset: 0, limit: 10 };
    expect(
      repo
        .list(other, range)
        .items.map((i) => i.transactionId)
        .sort(),
    ).toEqual(['TX0000001', 'TX0000002', 'TX0000003']);
    expect(repo.list(other, range).total).toBe(3);
    expect(repo.list(SCOPE, range).total).toBe(N);
    expect(repo.list(SCOPE, { ...range, text: 'ho tay' }).total).toBe(N / 4);
    expect(repo.list(other, { ...range, text: 'ho tay' }).total).toBe(0);
    // A page past the last match still tells how many there are.
    expect(repo.list(SCOPE, { ...range, text: 'ho tay', offset: N })).toEqual({ items: [], total: N / 4 });
    expect(repo.count(SCOPE)).toBe(N);
  });

  it('the counts kept per day follow rows that move to another day or series', () => {
    const range = { from: '2026-01-01', to: '2026-12-31', offset: 0, limit: 1 };
    const moved = { ...row(6), invDate: '2026-12-31', invSeries: '2C26TBB' };
    store.transaction((db) => upsertRows(db, SCOPE, [moved], 'sync', new Date().toISOString()));
    expect(repo.list(SCOPE, { ...range, from: '2026-12-31' }).total).toBe(1);
    expect(repo.list(SCOPE, { ...range, series: ['2C26TBB'] }).total).toBe(N / 4 + 1);
    const exact = (
      store.db
        .prepare("SELECT count(*) AS n FROM issued_invoices WHERE profile_id = ? AND service_key = ? AND kind = 'withoutCode'")
        .get(PROFILE, SCOPE.service) as { n: number }
    ).n;
    expect(repo.list(SCOPE, { ...range, kind: 'withoutCode' }).total).toBe(exact);
    store.transaction((db) => upsertRows(db, SCOPE, [row(6)], 'sync', new Date().toISOString()));
    expect(repo.list(SCOPE, { ...range, from: '2026-12-31' }).total).toBe(0);
    expect(repo.list(SCOPE, { ...range, series: ['2C26TBB'] }).total).toBe(N / 4);
  });

  it('the date, series and search queries use the register indexes, not a scan of the table', () => {
    const plan = (sql: string, ...args: string[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    const s = SCOPE.service;
    // Newest first, and the mirror order a far page is read in: the same index either way, no sort.
    for (const dir of ['DESC', 'ASC']) {
      const order = ['inv_date', 'inv_series', 'inv_no', 'kind', 'issued_invoices.id'].map((c) => `${c} ${dir}`).join(', ');
      expect(
        plan(
          `SELECT * FROM issued_invoices WHERE profile_id = ? AND service_key = ? AND inv_date BETWEEN ? AND ? ORDER BY ${order} LIMIT 50`,
          PROFILE,
          s,
          '2026-02-01',
          '2026-02-10',
        ),
      ).toMatch(/^SEARCH issued_invoices USING INDEX issued_by_date[^|]*$/);
    }
    expect(
      plan(
        'SELECT sum(n) FROM issued_day_counts WHERE profile_id = ? AND service_key = ? AND inv_date BETWEEN ? AND ?',
        PROFILE,
        s,
        '2026-01-01',
        '2026-12-31',
      ),
    ).toMatch(/SEARCH issued_day_counts USING PRIMARY KEY/);
    expect(
      plan(
        `SELECT count(*) FROM issued_search CROSS JOIN issued_invoices ON issued_invoices.id = issued_search.rowid
           WHERE issued_search.search LIKE ? AND profile_id = ? AND service_key = ? AND inv_date BETWEEN ? AND ?`,
        '%hong 5%',
        PROFILE,
        s,
        '2026-01-01',
        '2026-12-31',
      ),
    ).toMatch(/^SCAN issued_search VIRTUAL TABLE INDEX \d+:L\d+ \| SEARCH issued_invoices USING INTEGER PRIMARY KEY/);
    expect(
      plan('SELECT * FROM issued_invoices WHERE profile_id = ? AND service_key = ? AND inv_series = ? AND inv_no = ?', PROFILE, s, '1C26TAA', '00000001'),
    ).toMatch(/INDEX issued_by_series/);
  });
});

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
  store.transaction((db) => upsertRows(db, PROFILE, rows, 'sync', new Date().toISOString()));
}, 120_000);
afterAll(() => {
  store?.close();
  tmp?.cleanup();
});

describe('issued.list over 100 000 rows', () => {
  it('a date range gives its rows newest first with the count of all of them; offset pages through', () => {
    const all = repo.list(PROFILE, { from: '2026-02-01', to: '2026-02-10', offset: 0, limit: 50 });
    expect(all.total).toBe(4_000);
    expect(all.items[0]!.invDate).toBe('2026-02-10');
    const next = repo.list(PROFILE, { from: '2026-02-01', to: '2026-02-10', offset: 50, limit: 50 });
    expect(next.items[0]!.transactionId).not.toBe(all.items[0]!.transactionId);
    expect(new Set([...all.items, ...next.items].map((i) => i.transactionId)).size).toBe(100);
  });

  it('series, kind, buyer text without diacritics, tax code and number', () => {
    const range = { from: '2026-01-01', to: '2026-12-31', offset: 0, limit: 10 };
    expect(repo.list(PROFILE, { ...range, series: ['2C26TBB'] }).total).toBe(N / 4);
    expect(repo.list(PROFILE, { ...range, kind: 'withCode' }).total).toBe(N / 2);
    const hong = repo.list(PROFILE, { ...range, text: 'nguyen thi hong 5' });
    expect(hong.total).toBeGreaterThan(0);
    expect(hong.items.every((i) => i.buyerName.startsWith('Nguyễn Thị Hồng 5'))).toBe(true);
    expect(repo.list(PROFILE, { ...range, text: 'ĐỒNG XUÂN' }).total).toBe(N / 4);
    const byNumber = repo.list(PROFILE, { ...range, series: ['1K26TAA'], text: '00012345' });
    expect(byNumber.items.map((i) => i.invNo)).toEqual(['00012345']);
    expect(repo.list(PROFILE, { ...range, text: '100%_' }).total).toBe(0);
  });

  it('the date and series queries use the register indexes, not a scan of the table', () => {
    const plan = (sql: string, ...args: string[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    expect(plan('SELECT count(*) FROM issued_invoices WHERE profile_id = ? AND inv_date BETWEEN ? AND ?', PROFILE, '2026-02-01', '2026-02-10')).toMatch(
      /USING (COVERING )?INDEX issued_by_date/,
    );
    expect(
      plan(
        'SELECT * FROM issued_invoices WHERE profile_id = ? AND inv_date BETWEEN ? AND ? ORDER BY inv_date DESC, inv_series DESC, inv_no DESC LIMIT 50',
        PROFILE,
        '2026-02-01',
        '2026-02-10',
      ),
    ).not.toMatch(/TEMP B-TREE/);
    expect(plan('SELECT * FROM issued_invoices WHERE profile_id = ? AND inv_series = ? AND inv_no = ?', PROFILE, '1C26TAA', '00000001')).toMatch(
      /INDEX issued_by_series|PRIMARY|issued_by_number/,
    );
  });
});

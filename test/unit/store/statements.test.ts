import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyDraft, emptyLine, issuingForm } from '../../../common/money';
import { IssueQueue } from '../../../main/services/issuing/queue';
import { ProfileService } from '../../../main/services/profiles';
import { recordIssuedFromQueue } from '../../../main/services/register/from-queue';
import { upsertRows, type RegisterRow } from '../../../main/services/register/repository';
import { openDatabase, prepared, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** A database in a fresh folder, closed and removed after the test. */
function tempStore(): Store {
  const tmp = makeTempDir('einvoice-statements-');
  const store = openDatabase(tmp.dir);
  closers.push(() => {
    store.close();
    tmp.cleanup();
  });
  return store;
}

describe('prepared', () => {
  it('keeps one statement per SQL text and connection', () => {
    const a = new DatabaseSync(':memory:');
    const b = new DatabaseSync(':memory:');
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    for (const db of [a, b]) db.exec('CREATE TABLE t (x INTEGER)');
    const insert = 'INSERT INTO t (x) VALUES (?)';
    expect(prepared(a, insert)).toBe(prepared(a, insert));
    expect(prepared(a, insert)).not.toBe(prepared(b, insert));
    expect(prepared(a, 'SELECT count(*) AS n FROM t')).not.toBe(prepared(a, insert));
    // A kept statement runs again with new values, on its own connection only.
    prepared(a, insert).run(1);
    prepared(a, insert).run(2);
    prepared(b, insert).run(3);
    expect(prepared(a, 'SELECT sum(x) AS s FROM t').get()).toEqual({ s: 3 });
    expect(prepared(b, 'SELECT sum(x) AS s FROM t').get()).toEqual({ s: 3 });
    expect(prepared(a, 'SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
  });

  it('lets the register write its rows without preparing anything after the first batch', () => {
    const store = tempStore();
    const scope = { profileId: 'sandbox', service: 'sandbox|0101243150' };
    const row = (i: number): RegisterRow => ({
      transactionId: `TX${i}`,
      refId: `R${i}`,
      invSeries: '1C26TAA',
      invNo: String(i).padStart(8, '0'),
      invDate: '2026-11-27',
      kind: 'withCode',
      buyerName: `Khách ${i}`,
      buyerTaxCode: '',
      buyerEmail: '',
      currency: 'VND',
      total: '1000',
      totalWithoutVat: '0',
      totalVat: '0',
      invoiceCode: null,
      sendTaxStatus: null,
      eInvoiceStatus: 1,
      referenceType: 0,
      org: null,
    });
    const at = new Date().toISOString();
    store.transaction((db) => upsertRows(db, scope, [row(1), row(2)], 'queue', at));
    const prepare = vi.spyOn(store.db, 'prepare');
    const added = store.transaction((db) => upsertRows(db, scope, [row(2), row(3), row(4)], 'queue', at));
    expect(added).toBe(2);
    expect(prepare).not.toHaveBeenCalled();
    expect(prepared(store.db, 'SELECT count(*) AS n FROM issued_invoices').get()).toEqual({ n: 4 });
  });

  it('lets the issue queue copy issued invoices into the register without preparing anything after the first batch', () => {
    const store = tempStore();
    new ProfileService(store);
    const queue = new IssueQueue(store);
    const ids = [1, 2, 3].map((i) => {
      const draft = emptyDraft({
        RefID: `ref-${i}`,
        InvSeries: '1C26TAA',
        InvDate: '2026-11-27',
        BuyerLegalName: `Khách ${i}`,
        lines: [{ ...emptyLine(1), ItemName: 'Cà phê', UnitName: 'gói', Quantity: '1', UnitPrice: '185000', VATRateName: '10%' }],
      });
      const data = issuingForm(draft).data;
      const entry = queue.add('sandbox', {
        draftId: null,
        payload: data,
        kind: 'withCode',
        signType: 2,
        certificateSN: 'sn',
        buyerName: `Khách ${i}`,
        buyerEmail: '',
        total: String(data.TotalAmountOC),
        currency: 'VND',
        download: false,
        email: false,
      });
      return entry.id;
    });
    store.db.exec("UPDATE issue_queue SET state = 'issued', transaction_id = 'T' || id, inv_no = printf('%08d', id)");
    const at = new Date().toISOString();
    store.transaction((db) => recordIssuedFromQueue(db, ids.slice(0, 1), at));
    const prepare = vi.spyOn(store.db, 'prepare');
    store.transaction((db) => recordIssuedFromQueue(db, ids.slice(1), at));
    expect(prepare).not.toHaveBeenCalled();
    expect(prepared(store.db, 'SELECT transaction_id AS tx FROM issued_invoices ORDER BY id').all()).toEqual(ids.map((id) => ({ tx: `T${id}` })));
  });
});

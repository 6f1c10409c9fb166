import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeInvoice, emptyLine, toDecimalString, type ComputeOptions, type InvoiceDraft } from '../../../common/money';
import { Catalogues } from '../../../main/services/catalogues/catalogues';
import { DraftsRepository } from '../../../main/services/drafts/repository';
import { fieldPathForCode } from '../../../main/services/preview/field-path';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let catalogues: Catalogues;
let repo: DraftsRepository;
let clock = Date.parse('2026-03-10T03:00:00Z');

beforeEach(() => {
  temp = makeTempDir();
  store = openDatabase(temp.dir);
  clock = Date.parse('2026-03-10T03:00:00Z');
  const now = () => new Date((clock += 1000));
  catalogues = new Catalogues(store, now);
  repo = new DraftsRepository(store, { now, learn: (d) => catalogues.learnFromDraft(d) });
});
afterEach(() => {
  store.close();
  temp.cleanup();
});

function filled(d: InvoiceDraft, buyer: string, taxCode: string, price: string): InvoiceDraft {
  return {
    ...d,
    BuyerLegalName: buyer,
    BuyerTaxCode: taxCode,
    BuyerAddress: 'Hà Nội',
    lines: [
      { ...emptyLine(1), ItemCode: 'SP01', ItemName: 'Cà phê sữa', UnitName: 'ly', Quantity: '2', UnitPrice: price, VATRateName: '8%' },
      { ...emptyLine(1), ItemName: 'Bánh mì', UnitName: 'cái', Quantity: '1', UnitPrice: '20000', VATRateName: '10%' },
      { ...emptyLine(4), ItemName: 'Giao tận nơi' },
    ],
  };
}

describe('DraftsRepository', () => {
  it('creates a draft with a UUID RefID and today in Vietnam', () => {
    clock = Date.parse('2026-03-10T17:30:00Z'); // 00:30 on 11 March in Vietnam
    const rec = repo.create();
    expect(rec.draft.RefID).toMatch(/^[0-9a-f-]{36}$/);
    expect(rec.draft.InvDate).toBe('2026-03-11');
    expect(rec.revision).toBe(1);
    expect(rec.lastPreviewedAt).toBeNull();
  });

  it('saves atomically, bumps the revision and derives the list columns', () => {
    const rec = repo.create();
    const s = repo.save(rec.id, filled(rec.draft, 'Công ty An Phát', '0101243150', '25000'));
    expect(s.revision).toBe(2);
    expect(s.buyerName).toBe('Công ty An Phát');
    // 2×25000 at 8% = 54000; 20000 at 10% = 22000
    expect(s.total).toBe('76000');
    expect(s.lineCount).toBe(3);
    const back = repo.get(rec.id);
    expect(back.draft.lines[2]!.ItemType).toBe(4);
    expect(back.draft.BuyerTaxCode).toBe('0101243150');
  });

  it('saves only the changed lines and the header onto the revision they were based on', () => {
    const rec = repo.create();
    const first = repo.save(rec.id, filled(rec.draft, 'Công ty An Phát', '0101243150', '25000'));
    const { lines, ...head } = repo.get(rec.id).draft;
    const s = repo.saveChanges(rec.id, {
      base: first.revision,
      head: { ...head, BuyerAddress: 'Đà Nẵng' },
      lineCount: 3,
      lines: [{ at: 1, line: { ...lines[1]!, Quantity: '3' } }],
    });
    expect(s.revision).toBe(first.revision + 1);
    // 2×25000 at 8% = 54000; 3×20000 at 10% = 66000
    expect(s.total).toBe('120000');
    const back = repo.get(rec.id).draft;
    expect(back.BuyerAddress).toBe('Đà Nẵng');
    expect(back.lines.map((l) => l.Quantity)).toEqual(['2', '3', '']);
    expect(back.lines[0]).toEqual(lines[0]);
    expect(back.lines[2]).toEqual(lines[2]);
  });

  it('refuses changes based on another revision or line count, and writes nothing', () => {
    const rec = repo.create();
    const first = repo.save(rec.id, filled(rec.draft, 'A', '0101243150', '25000'));
    const { lines, ...head } = repo.get(rec.id).draft;
    const line = { ...lines[0]!, Quantity: '9' };
    const tries = [
      { base: first.revision - 1, head, lineCount: 3, lines: [{ at: 0, line }] },
      { base: first.revision, head, lineCount: 4, lines: [{ at: 0, line }] },
      { base: first.revision, head, lineCount: 3, lines: [{ at: 3, line }] },
    ];
    for (const changes of tries)
      expect(() => repo.saveChanges(rec.id, changes), JSON.stringify(changes.lineCount)).toThrow(expect.objectContaining({ code: 'draft_changed' }));
    const back = repo.get(rec.id);
    expect(back.revision).toBe(first.revision);
    expect(back.draft.lines[0]!.Quantity).toBe('2');
    expect(() => repo.saveChanges('no-such-draft', tries[0]!)).toThrow(expect.objectContaining({ code: 'draft_not_found' }));
  });

  it('refuses changes when another process saved the draft between their read and their write', () => {
    // The second connection stands for another process on the same data folder; it saves while
    // this one works out the list's columns, after it read the stored draft.
    const other = openDatabase(temp.dir);
    let interfere: (() => void) | null = null;
    const here = new DraftsRepository(store, {
      computeOptions: () => {
        const run = interfere;
        interfere = null;
        run?.();
        return {};
      },
    });
    try {
      const rec = here.create();
      const first = here.save(rec.id, filled(rec.draft, 'A', '0101243150', '25000'));
      const { lines, ...head } = here.get(rec.id).draft;
      interfere = () => new DraftsRepository(other).save(rec.id, { ...head, BuyerAddress: 'Sửa ở nơi khác', lines });
      const changes = { base: first.revision, head, lineCount: 3, lines: [{ at: 0, line: { ...lines[0]!, Quantity: '9' } }] };
      expect(() => here.saveChanges(rec.id, changes)).toThrow(expect.objectContaining({ code: 'draft_changed' }));
      expect(interfere).toBeNull();
      const back = here.get(rec.id);
      expect(back.revision).toBe(first.revision + 1);
      expect(back.draft.BuyerAddress).toBe('Sửa ở nơi khác');
      expect(back.draft.lines[0]!.Quantity).toBe('2');
    } finally {
      other.close();
    }
  });

  it('refuses changes to a draft sent for issuing', () => {
    const rec = repo.create();
    const first = repo.save(rec.id, filled(rec.draft, 'A', '0101243150', '25000'));
    store.db
      .prepare(
        `INSERT INTO issue_queue (id, profile_id, draft_id, ref_id, inv_series, inv_date, kind, sign_type, state, next_attempt_at, created_at, updated_at)
         VALUES (7, 'p', ?, 'r', '1C26TAA', '2026-03-10', 'withCode', 1, 'queued', ?, ?, ?)`,
      )
      .run(rec.id, ...Array<string>(3).fill('2026-03-10T03:00:00Z'));
    store.db.prepare('UPDATE drafts SET issue_id = 7 WHERE id = ?').run(rec.id);
    const { lines, ...head } = repo.get(rec.id).draft;
    expect(() => repo.saveChanges(rec.id, { base: first.revision, head, lineCount: 3, lines: [{ at: 0, line: lines[0]! }] })).toThrow(
      expect.objectContaining({ code: 'draft_locked' }),
    );
  });

  it('keeps the list total right across saves of two drafts in turn and a change of currency', () => {
    const a = repo.create();
    const b = repo.create();
    const draftA = filled(a.draft, 'A', '0101243150', '25000');
    expect(repo.save(a.id, draftA).total).toBe('76000');
    expect(repo.save(b.id, filled(b.draft, 'B', '0101243150', '10000')).total).toBe('43600');
    const changed = { ...draftA, lines: draftA.lines.map((l, i) => (i === 1 ? { ...l, Quantity: '3' } : l)) };
    expect(repo.save(a.id, changed).total).toBe('120000');
    // 2×25000.5 at 8% = 54001.08 in USD (2 decimals); 3×20000 at 10% = 66000
    const usd = { ...changed, CurrencyCode: 'USD', ExchangeRate: '25000', lines: changed.lines.map((l, i) => (i === 0 ? { ...l, UnitPrice: '25000.5' } : l)) };
    expect(repo.save(a.id, usd).total).toBe('120001.08');
    expect(repo.save(a.id, changed).total).toBe('120000');
  });

  it('keeps the list total right when the rounding changes between two saves of the same lines', () => {
    let options: ComputeOptions = {};
    const rounding = new DraftsRepository(store, { computeOptions: () => options });
    const rec = rounding.create();
    // Amounts whose rounding differs by mode and by decimals, unchanged from save to save.
    const lines = ['0.5', '2.5', '1.25', '3.335'].map((price) => ({
      ...emptyLine(1),
      ItemName: `Hàng ${price}`,
      Quantity: '1',
      UnitPrice: price,
      VATRateName: '10%',
    }));
    const draft = { ...rec.draft, BuyerLegalName: 'A', lines };
    const expected = (d: InvoiceDraft) => toDecimalString(computeInvoice(d, options).totals.TotalAmountOC);
    const totals: string[] = [];
    for (const next of [{}, { rounding: 'down' }, { rounding: 'half-even' }, { decimals: 2 }, { decimals: 2, rounding: 'down' }, {}] as ComputeOptions[]) {
      options = next;
      const saved = rounding.save(rec.id, draft).total;
      expect(saved, JSON.stringify(next)).toBe(expected(draft));
      totals.push(saved);
    }
    // The options did change the figure (else this would check nothing).
    expect(new Set(totals).size).toBeGreaterThan(2);
    // Another currency, the same lines: the rule of that currency.
    const usd = { ...draft, CurrencyCode: 'USD', ExchangeRate: '25000' };
    expect(rounding.save(rec.id, usd).total).toBe(expected(usd));
    expect(rounding.save(rec.id, draft).total).toBe(expected(draft));
  });

  it('searches by buyer, tax code, amount and date, and sorts', () => {
    const a = repo.create();
    repo.save(a.id, filled(a.draft, 'Công ty An Phát', '0101243150', '25000'));
    const b = repo.create();
    repo.save(b.id, { ...filled(b.draft, 'Nhà hàng Bình Minh', '0312345678', '100000'), InvDate: '2026-02-01' });
    expect(repo.list({ query: 'bình minh' }).items.map((i) => i.id)).toEqual([b.id]);
    expect(repo.list({ query: '0101243' }).items.map((i) => i.id)).toEqual([a.id]);
    expect(repo.list({ query: '76.000' }).items.map((i) => i.id)).toEqual([a.id]);
    expect(repo.list({ query: '01/02/2026' }).items.map((i) => i.id)).toEqual([b.id]);
    expect(repo.list({ query: '2026-02' }).items.map((i) => i.id)).toEqual([b.id]);
    expect(repo.list({ sort: 'total', direction: 'desc' }).items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(repo.list({ sort: 'buyer', direction: 'asc' }).items.map((i) => i.id)).toEqual([a.id, b.id]);
    expect(repo.list({ sort: 'date', direction: 'asc' }).items[0]!.id).toBe(b.id);
    expect(repo.list({ query: '50%_' }).items).toEqual([]);
  });

  it('duplicates with a new RefID, deletes to the bin and restores (undo)', () => {
    const a = repo.create();
    repo.save(a.id, filled(a.draft, 'Công ty An Phát', '0101243150', '25000'));
    const copy = repo.duplicate(a.id);
    expect(copy.id).not.toBe(a.id);
    expect(copy.draft.RefID).not.toBe(repo.get(a.id).draft.RefID);
    expect(copy.draft.lines).toHaveLength(3);
    repo.delete(a.id);
    expect(() => repo.get(a.id)).toThrow(/no draft/);
    expect(repo.list().items.map((i) => i.id)).toEqual([copy.id]);
    expect(() => repo.save(a.id, copy.draft)).toThrow(/no draft/);
    repo.restore(a.id);
    expect(repo.get(a.id).buyerName).toBe('Công ty An Phát');
    expect(repo.list().total).toBe(2);
  });

  it('exports InvoiceData and imports it back to the same draft', () => {
    const a = repo.create();
    repo.save(a.id, filled(a.draft, 'Công ty An Phát', '0101243150', '25000'));
    const exported = repo.export(a.id);
    expect(exported.fileName).toMatch(/Công-ty-An-Phát\.json$/);
    const inv = exported.invoice;
    expect(inv.TotalAmountOC).toBe(76000);
    expect(inv.TaxRateInfo).toHaveLength(2);
    expect(inv.TotalAmountInWords).toMatch(/^Bảy mươi sáu nghìn đồng/);
    const imported = repo.import(JSON.parse(JSON.stringify(inv)));
    expect(imported.draft.lines.map((l) => l.ItemName)).toEqual(['Cà phê sữa', 'Bánh mì', 'Giao tận nơi']);
    expect(imported.total).toBe('76000');
    expect(imported.meta.wordsEdited).toBe(false);
    expect(() => repo.import({ nope: 1 })).toThrow(/not an InvoiceData/);
    // Hand-typed words survive the round trip.
    const withWords = repo.import({ ...inv, TotalAmountInWords: 'Bảy mươi sáu ngàn đồng chẵn' });
    expect(withWords.meta).toEqual({ wordsEdited: true, words: 'Bảy mươi sáu ngàn đồng chẵn' });
    expect(repo.invoiceData(withWords.id).TotalAmountInWords).toBe('Bảy mươi sáu ngàn đồng chẵn');
  });

  it('learns buyers and items only from explicit saves', () => {
    const a = repo.create();
    repo.save(a.id, filled(a.draft, 'Công ty An Phát', '0101243150', '25000'));
    expect(catalogues.searchBuyers('an phat')).toEqual([]);
    repo.save(a.id, filled(a.draft, 'Công ty An Phát', '0101243150', '25000'), undefined, true);
    expect(catalogues.searchBuyers('an phat')[0]).toMatchObject({ taxCode: '0101243150', legalName: 'Công ty An Phát', uses: 1 });
    expect(catalogues.searchBuyers('0101243150')[0]!.legalName).toBe('Công ty An Phát');
    const items = catalogues.searchItems('ca phe');
    expect(items[0]).toMatchObject({ code: 'SP01', name: 'Cà phê sữa', unit: 'ly', price: '25000', vatRate: '8%' });
    expect(catalogues.searchItems('giao')).toEqual([]); // note lines are not items
    expect(catalogues.searchItems('sp01')[0]!.name).toBe('Cà phê sữa');
  });
});

describe('CSV import', () => {
  it('imports items with aliases, separators and problems per row', () => {
    const csv =
      '\uFEFFMã hàng;Tên hàng;ĐVT;Đơn giá;Thuế suất\nA1;"Nước suối; chai 500ml";chai;8000;8\nA2;Trà đá;ly;abc;10%\nA3;;ly;1;10%\nA4;Bia;lon;15000;KHAC3.5%\nA5;Lạ;cái;1;7%\n';
    const r = catalogues.importCsv('items', csv);
    expect(r.imported).toBe(2);
    expect(r.skipped).toBe(3);
    expect(r.problems.map((p) => p.row)).toEqual([3, 4, 6]);
    expect(catalogues.searchItems('nuoc suoi')[0]).toMatchObject({ name: 'Nước suối; chai 500ml', price: '8000', vatRate: '8%' });
    expect(catalogues.searchItems('bia')[0]!.vatRate).toBe('KHAC:3.5%');
  });

  it('reads prices the Vietnamese way and refuses a dot that is not a thousands group', () => {
    const r = catalogues.importCsv('items', 'name;price\nGạo ST25;25.000\nMuối;1.234.567,5\nĐường;25.00\n');
    expect(r.imported).toBe(2);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.row).toBe(4);
    expect(r.problems[0]!.message.vi).toContain('25.000');
    expect(catalogues.searchItems('gao')[0]!.price).toBe('25000');
    expect(catalogues.searchItems('muoi')[0]!.price).toBe('1234567.5');
  });

  it('imports buyers and refuses a file without a name column', () => {
    const r = catalogues.importCsv('buyers', 'taxCode,legalName,address,email\n0101243150,Công ty An Phát,Hà Nội,ke.toan@anphat.vn\n');
    expect(r.imported).toBe(1);
    expect(catalogues.searchBuyers('anphat')).toEqual([]);
    expect(catalogues.searchBuyers('an phat')[0]!.email).toBe('ke.toan@anphat.vn');
    const bad = catalogues.importCsv('buyers', 'foo,bar\n1,2\n');
    expect(bad.imported).toBe(0);
    expect(bad.problems[0]!.message.en).toMatch(/no legalName column/);
  });
});

describe('fieldPathForCode', () => {
  const draft = {
    lines: [
      { ...emptyLine(1), ItemName: 'A', UnitPrice: '1' },
      { ...emptyLine(1), ItemName: 'B', UnitPrice: '' },
    ],
  } as unknown as InvoiceDraft;
  it('maps codes naming a field to a draft path', () => {
    expect(fieldPathForCode('RequireError_BuyerLegalName', draft)).toBe('BuyerLegalName');
    expect(fieldPathForCode('requireerror_invseries', draft)).toBe('InvSeries');
    expect(fieldPathForCode('InvoiceDetail_UnitPrice', draft)).toBe('lines[1].UnitPrice');
    expect(fieldPathForCode('InvoiceDetail_ItemName', draft)).toBe('lines[0].ItemName');
    expect(fieldPathForCode('TaxRateInfo_VATRateName', draft)).toBe('lines[0].VATRateName');
    expect(fieldPathForCode('RequireError_TotalAmountInWords', draft)).toBe('words');
    expect(fieldPathForCode('InvalidTaxCode', draft)).toBe('BuyerTaxCode');
    expect(fieldPathForCode('InvalidInvSeries', draft)).toBe('InvSeries');
    expect(fieldPathForCode('LicenseInfo_Expired', draft)).toBeNull();
    expect(fieldPathForCode(null, draft)).toBeNull();
  });
});

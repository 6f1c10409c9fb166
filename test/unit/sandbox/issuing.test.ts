import { describe, expect, it } from 'vitest';
import { buildCatalogue, buildTemplates, taxAuthorityCode } from '../../../main/sandbox/data';
import { FAULT_OPS, FaultInjector, formatFaultSpec, parseFaultSpec } from '../../../main/sandbox/faults';
import { IssueLedger } from '../../../main/sandbox/ledger';
import { kindOfSeries } from '../../../main/sandbox/operations/issue';
import { checkQuirks } from '../../../main/sandbox/quirks';
import { sampleInvoiceData } from '../../support/sandbox-invoice';

const START = new Date('2026-11-21T03:00:00Z');
const setup = () => {
  const cat = buildCatalogue(4, 200, START);
  const templates = buildTemplates(4, 2026);
  return { cat, templates, ledger: new IssueLedger(4, cat, templates, START) };
};
const body = (...series: string[]) => ({ InvoiceData: series.map((s, i) => ({ InvSeries: s, RefID: `ref-${i}` })) });

describe('IssueLedger', () => {
  it('resolves a series among the active templates, in the 7- or 6-character form, any case', () => {
    const { ledger } = setup();
    expect(ledger.resolveSeries('1C26TAA')).toBe('1C26TAA');
    expect(ledger.resolveSeries(' k26taa ')).toBe('1K26TAA');
    expect(ledger.resolveSeries('C26MAA')).toBe('1C26MAA');
    expect(ledger.resolveSeries('1C26TXD')).toBeUndefined(); // inactive template
    expect(ledger.resolveSeries('1C26TZZ')).toBeUndefined();
    expect(ledger.resolveSeries(42)).toBeUndefined();
  });

  it('a series held by a request in flight conflicts for the next one, until every holder released it', () => {
    const { ledger } = setup();
    const a = ledger.enter(body('1C26TAA'));
    const b = ledger.enter(body('C26TAA', '1K26TAA'));
    expect([...a.conflicts]).toEqual([]);
    expect([...b.conflicts]).toEqual(['1C26TAA']);
    a.release();
    a.release();
    expect([...ledger.enter(body('1C26TAA')).conflicts]).toEqual(['1C26TAA']); // b still holds it
    b.release();
    expect([...ledger.enter(body('1K26TAA')).conflicts]).toEqual([]);
  });

  it('counts requests per RefID (cleared by clearLogs) apart from recordings', () => {
    const { ledger } = setup();
    ledger.enter({ InvoiceData: [{ RefID: 'x' }, { RefID: 'x' }] }).release();
    ledger.enter({ invoicedata: [{ refid: 'x' }] }).release();
    expect(ledger.attempts('x')).toEqual([{ RefID: 'x', requests: 2, recorded: 0 }]);
    expect(ledger.attempts('never')).toEqual([]);
    ledger.countOverlap();
    ledger.clearLogs();
    expect([ledger.attempts(), ledger.overlaps]).toEqual([[], 0]);
  });

  it('makes TransactionIDs that are unique, deterministic from the seed, and not in the catalogue', () => {
    const one = setup().ledger;
    const two = setup().ledger;
    const ids = Array.from({ length: 50 }, () => one.nextTransactionId());
    expect(Array.from({ length: 50 }, () => two.nextTransactionId())).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    expect(ids.every((id) => /^[A-Z2-9]{10}$/.test(id))).toBe(true);
  });

  it('has one certificate valid around the start date', () => {
    const { certificate } = setup().ledger;
    expect(certificate.CertificateSN).toMatch(/^[0-9A-F]{32}$/);
    expect(Date.parse(certificate.EffectiveTime)).toBeLessThan(START.getTime());
    expect(Date.parse(certificate.ExpirationTime)).toBeGreaterThan(START.getTime());
  });
});

describe('catalogue additions', () => {
  it('seriesTail, add and byRefId', () => {
    const { cat } = setup();
    const tail = cat.seriesTail('1C26TAA')!;
    expect(tail.invNo).toBeGreaterThan(0);
    expect(tail.date <= '2026-11-01').toBe(true);
    expect(cat.seriesTail('1C26TBH')).toBeUndefined();
    const first = cat.list('withCode')[0]!;
    expect(cat.byRefId(cat.get(first)!.RefID)).toBe(first);
    const inv = {
      ...sampleInvoiceData({ InvSeries: '1C26TBH', InvDate: '2026-11-21' }),
      TransactionID: 'NEWCODE234',
      InvNo: '00000001',
      kind: 'withCode' as const,
    };
    const size = cat.size;
    cat.add(inv);
    expect([cat.size, cat.kindOf('NEWCODE234'), cat.get('NEWCODE234'), cat.byRefId(inv.RefID)]).toEqual([size + 1, 'withCode', inv, 'NEWCODE234']);
    expect(cat.seriesTail('1C26TBH')).toEqual({ invNo: 1, date: '2026-11-21' });
    expect(() => cat.add(inv)).toThrow(/exists/);
  });

  it('taxAuthorityCode: coded kinds only', () => {
    expect(taxAuthorityCode({ kind: 'withCode', InvSeries: '1C26TAA', TransactionID: 'ABC' })).toBe('M1-26-SBX00-ABC');
    expect(taxAuthorityCode({ kind: 'withoutCode', InvSeries: '1K26TAA', TransactionID: 'ABC' })).toBeNull();
  });

  it('kindOfSeries: M type letter = cash register, else C/K', () => {
    expect(['1C26TAA', '1K26TAA', '1C26MAA', 'C26MAA', 'nope'].map(kindOfSeries)).toEqual([
      'withCode',
      'withoutCode',
      'cashRegister',
      'cashRegister',
      undefined,
    ]);
  });
});

describe('faults and quirks of issuing', () => {
  it('issue, status and certificates are fault ops; late500 (late-500) is a post-handler kind', () => {
    expect(FAULT_OPS).toEqual(expect.arrayContaining(['issue', 'status', 'certificates']));
    const f = parseFaultSpec('issue:late-500=0.5:reset=0.2,status:error=1,certificates:hang=1');
    expect(f).toEqual({ issue: { late500: 0.5, reset: 0.2 }, status: { error: 1 }, certificates: { hang: 1 } });
    expect(parseFaultSpec(formatFaultSpec(f))).toEqual(f);
    expect(new FaultInjector(1, { issue: { late500: 1 } }).decide('issue').kind).toBe('late500');
  });

  it('adding late500 leaves the draws of existing configs unchanged', () => {
    const config = { download: { reset: 0.3, malformed: 0.3 } };
    const before = new FaultInjector(5, config);
    const after = new FaultInjector(5, { download: { ...config.download, late500: 0 } });
    const kinds = (inj: FaultInjector) => Array.from({ length: 40 }, () => inj.decide('download').kind);
    expect(kinds(after)).toEqual(kinds(before));
  });

  it('checkQuirks: ms quirks are whole non-negative numbers, licenceInvoices null or a count', () => {
    expect(checkQuirks({ statusDelayMs: 0, invoiceCodeDelayMs: 1000, issueProcessingMs: 5, licenceInvoices: null })).toEqual({
      statusDelayMs: 0,
      invoiceCodeDelayMs: 1000,
      issueProcessingMs: 5,
      licenceInvoices: null,
    });
    expect(checkQuirks({ licenceInvoices: 0 })).toEqual({ licenceInvoices: 0 });
    expect(() => checkQuirks({ statusDelayMs: 3_600_001 })).toThrow(/bad value/);
    expect(() => checkQuirks({ licenceInvoices: 2.5 })).toThrow(/bad value/);
  });
});

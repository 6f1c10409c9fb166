import { describe, expect, it } from 'vitest';
import { validateDraft } from '../../../common/validation';
import { emptyDraft, emptyLine, type DraftLine, type InvoiceDraft } from '../../../common/money';

const NOW = new Date('2025-06-15T03:00:00Z');
const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), ItemName: 'Hàng', UnitPrice: '1000', ...o });

function good(): InvoiceDraft {
  return emptyDraft({
    RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
    InvDate: '2025-06-15',
    InvSeries: '1C25TAA',
    BuyerTaxCode: '0101243150',
    BuyerLegalName: 'Công ty ABC',
    BuyerAddress: 'Hà Nội',
    BuyerEmail: 'ketoan@abc.vn',
    lines: [line({}), line({ ItemType: 4, ItemName: 'Ghi chú', Quantity: '', UnitPrice: '', VATRateName: '' })],
  });
}

describe('validateDraft', () => {
  it('a good draft has no problems', () => {
    const r = validateDraft(good(), { now: NOW });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('returns every problem at once, each with a path, en + vi message and severity', () => {
    const d = good();
    d.RefID = 'abc';
    d.InvSeries = '1C24TAA';
    d.BuyerTaxCode = '12345';
    d.BuyerAddress = '';
    d.BuyerEmail = 'a@b.vn; c@d.vn';
    d.lines = [
      line({ Quantity: '1,5' }),
      line({ UnitPrice: '-3' }),
      line({ DiscountRate: '120' }),
      line({ Quantity: '2', discountBy: 'amount', DiscountAmountOC: '5000' }),
      line({ VATRateName: '7%' }),
      line({ ItemName: ' ', VATRateName: '' }),
    ];
    const r = validateDraft(d, { now: NOW });
    const byPath = Object.fromEntries(r.problems.map((p) => [`${p.path}|${p.code}`, p.severity]));
    expect(byPath).toEqual({
      'BuyerAddress|required.BuyerAddress': 'error',
      'RefID|refId.format': 'error',
      'InvSeries|series.year': 'warning',
      'BuyerTaxCode|taxCode.format': 'error',
      'BuyerEmail|email.single': 'error',
      'lines[0].Quantity|line.number': 'error',
      'lines[1].UnitPrice|line.negative': 'error',
      'lines[2].DiscountRate|line.discountRate': 'error',
      'lines[3].DiscountAmountOC|line.discountTooLarge': 'error',
      'lines[4].VATRateName|line.vatLabel': 'error',
      'lines[5].ItemName|line.itemName': 'error',
      'lines[5].VATRateName|line.vatRequired': 'error',
    });
    expect(r.ok).toBe(false);
    expect(r.warnings).toHaveLength(1);
    for (const p of r.problems) {
      expect(p.message.length).toBeGreaterThan(5);
      expect(p.messageVi.length).toBeGreaterThan(5);
      expect(p.messageVi).not.toBe(p.message);
    }
    const q = r.problems.find((p) => p.path === 'lines[0].Quantity')!;
    expect(q.message).toContain('Line 1');
    expect(q.messageVi).toContain('Dòng 1');
  });

  it('an invoice date after today in Vietnam is an error; "today" follows UTC+7', () => {
    const d = { ...good(), InvDate: '2025-06-16' };
    expect(validateDraft(d, { now: new Date('2025-06-15T16:59:00Z') }).errors.map((p) => p.code)).toEqual(['date.future']);
    expect(validateDraft(d, { now: new Date('2025-06-15T17:00:00Z') }).errors).toEqual([]);
  });

  it('bad dates, no lines, a negative total and an edited VAT', () => {
    const d = good();
    d.InvDate = '2025-02-30';
    d.lines = [];
    expect(validateDraft(d, { now: NOW }).errors.map((p) => p.path)).toEqual(['TaxRateInfo', 'InvDate', 'lines']);
    const neg = good();
    neg.lines = [line({ UnitPrice: '100' }), line({ ItemType: 3, UnitPrice: '500' })];
    neg.vatOverrides = { '10%': '0', '5%': '3' };
    const r = validateDraft(neg, { now: NOW });
    expect(r.problems.map((p) => `${p.path}|${p.code}|${p.severity}`)).toEqual([
      'taxRates[0].VATAmountOC|vat.edited|warning',
      'vatOverrides.5%|vat.overrideUnused|warning',
      'TotalAmountOC|total.negative|error',
    ]);
  });

  it('a foreign currency needs a positive exchange rate; VND should have 1', () => {
    const usd = { ...good(), CurrencyCode: 'USD', ExchangeRate: '0' };
    expect(validateDraft(usd, { now: NOW }).errors.map((p) => p.path)).toEqual(['ExchangeRate']);
    const vnd = { ...good(), ExchangeRate: '2' };
    expect(validateDraft(vnd, { now: NOW }).warnings.map((p) => p.code)).toEqual(['exchangeRate.vnd']);
    const bad = { ...good(), CurrencyCode: 'US$' };
    expect(validateDraft(bad, { now: NOW }).errors.map((p) => p.code)).toEqual(['currency.format']);
  });

  it('amounts too large for an exact JSON number are errors', () => {
    const d = good();
    d.lines = [line({ Quantity: '1', UnitPrice: '9007199254740993', VATRateName: '0%' })];
    const codes = validateDraft(d, { now: NOW }).errors.map((p) => `${p.path}|${p.code}`);
    expect(codes).toContain('lines[0].UnitPrice|amount.tooLarge');
    expect(codes).toContain('TotalAmountOC|amount.tooLarge');
  });

  it('a zero quantity is a warning only', () => {
    const d = good();
    d.lines = [line({ Quantity: '0' })];
    const r = validateDraft(d, { now: NOW });
    expect(r.ok).toBe(true);
    expect(r.warnings.map((p) => p.path)).toEqual(['lines[0].Quantity']);
  });
});

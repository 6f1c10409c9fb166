import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { INVOICE_KINDS } from '../../../common/model/kind';
import { buildCatalogue, buildTemplates } from '../../../main/sandbox/data';
import { checkQuirks, DEFAULT_QUIRKS } from '../../../main/sandbox/quirks';
import { SANDBOX_DEV_TOKEN, TokenIssuer } from '../../../main/sandbox/tokens';
import { validateInvoiceData } from '../../../main/sandbox/validate';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import { amountInWords } from '../../../main/sandbox/words';

const NOW = new Date('2026-11-21T10:00:00Z');

describe('catalogue', () => {
  it('is deterministic for a seed and different for another', () => {
    const a = buildCatalogue(1, 300, NOW);
    const b = buildCatalogue(1, 300, NOW);
    const c = buildCatalogue(2, 300, NOW);
    expect(a.list('withCode')).toEqual(b.list('withCode'));
    const id = a.list('withCode')[5] as string;
    expect(a.get(id)).toEqual(b.get(id));
    expect(c.list('withCode')).not.toEqual(a.list('withCode'));
  });

  it('partitions the invoices by kind, with unique ids and some deleted ones', () => {
    const cat = buildCatalogue(1, 5000, NOW);
    expect(cat.size).toBe(5000);
    const all = INVOICE_KINDS.flatMap((k) => [...cat.list(k), ...cat.deletedIds(k)]);
    expect(new Set(all).size).toBe(5000);
    for (const k of INVOICE_KINDS) {
      expect(cat.list(k).length).toBeGreaterThan(300);
      for (const id of cat.list(k).slice(0, 50)) expect(cat.kindOf(id)).toBe(k);
    }
    expect(INVOICE_KINDS.reduce((n, k) => n + cat.deletedIds(k).length, 0)).toBeGreaterThan(10);
    const calc = cat.get(cat.list('cashRegister')[0] as string);
    expect(calc?.InvSeries).toMatch(/^1C26MAA$/);
    expect(cat.get(cat.list('withoutCode')[0] as string)?.InvSeries).toBe('1K26TAA');
  });

  it('has Vietnamese content and consistent decimal totals', () => {
    const cat = buildCatalogue(1, 400, NOW);
    let diacritics = 0;
    for (const id of cat.list('withCode')) {
      const inv = cat.get(id);
      if (!inv) throw new Error('missing');
      if (/[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i.test(inv.BuyerFullName + inv.BuyerAddress)) diacritics++;
      const base = inv.TaxRateInfo.reduce((s, t) => s.plus(t.AmountWithoutVATOC), new Decimal(0));
      const vat = inv.TaxRateInfo.reduce((s, t) => s.plus(t.VATAmountOC), new Decimal(0));
      expect(base.toNumber()).toBe(inv.TotalAmountWithoutVATOC);
      expect(vat.toNumber()).toBe(inv.TotalVATAmountOC);
      expect(new Decimal(inv.TotalAmountWithoutVATOC).plus(inv.TotalVATAmountOC).toNumber()).toBe(inv.TotalAmountOC);
      if (inv.CurrencyCode === 'VND') expect(Number.isInteger(inv.TotalAmountOC)).toBe(true);
      expect(inv.InvDate.startsWith('2026-')).toBe(true);
      expect(inv.TransactionID).toBe(id);
    }
    expect(diacritics).toBeGreaterThan(cat.list('withCode').length / 2);
  });

  it('numbers invoices in date order per series', () => {
    const cat = buildCatalogue(1, 500, NOW);
    const invs = cat.list('withoutCode').map((id) => cat.get(id)!);
    const sorted = [...invs].sort((a, b) => Number(a.InvNo) - Number(b.InvNo));
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.InvDate >= sorted[i - 1]!.InvDate).toBe(true);
  });
});

describe('templates', () => {
  const list = buildTemplates(1, 2026);
  it('covers this and last year, with/without code, tickets, inactive and multi-rate ones', () => {
    expect(new Set(list.map((t) => t.year))).toEqual(new Set([2025, 2026]));
    const now = list.filter((t) => t.year === 2026);
    expect(now.some((t) => t.withCode && !t.ticket)).toBe(true);
    expect(now.some((t) => !t.withCode && !t.ticket)).toBe(true);
    expect(now.some((t) => t.ticket)).toBe(true);
    expect(now.some((t) => t.template.Inactive)).toBe(true);
    expect(now.some((t) => t.template.IsMoreVATRate === true)).toBe(true);
    for (const t of list) {
      expect(t.template.InvSeries).toMatch(new RegExp(`^[125]${t.withCode ? 'C' : 'K'}${String(t.year).slice(2)}[A-Z]{3}$`));
      if (t.ticket) expect(t.template.InvSeries.startsWith('5')).toBe(true);
    }
  });
  it('carries every sample field of the templates answer', () => {
    const fields = [
      'IPTemplateID',
      'TemplateName',
      'InvSeries',
      'Inactive',
      'IsInheritFromOldTemplate',
      'IsSendSummary',
      'IsPetrol',
      'IsMoreVATRate',
      'CompanyID',
      'InvTemplateNo',
      'OrgInvSeries',
      'TemplateType',
      'InvoiceType',
      'BusinessAreas',
      'SortOrder',
      'SignedDate',
      'CreatedDate',
      'CreatedBy',
      'ModifiedDate',
      'ModifiedBy',
      'TemplateContent',
      'DefaultTemplateID',
      'IsCustomTemplate',
      'XsltVersion',
      'IsPublished',
      'IsPublishedPetrol',
      'IsTemplatePetrol',
      'MappingConfigVat',
      'ExpireDateType',
    ];
    for (const t of list) for (const f of fields) expect(t.template, f).toHaveProperty(f);
    expect(list[0]!.template.DefaultTemplateID).toMatch(/^[0-9a-f-]{36}$/);
    expect(buildTemplates(1, 2026)).toEqual(list);
  });
});

describe('amount in words', () => {
  it.each([
    [1_230_000, 'Một triệu hai trăm ba mươi nghìn đồng'],
    [21, 'Hai mươi mốt đồng'],
    [15, 'Mười lăm đồng'],
    [105, 'Một trăm linh năm đồng'],
    [1_005_000, 'Một triệu không trăm linh năm nghìn đồng'],
    [2_000_000_000, 'Hai tỷ đồng'],
    [0, 'Không đồng'],
  ])('%d → %s', (n, words) => {
    expect(amountInWords(n)).toBe(words);
  });
  it('reads USD with cents', () => {
    expect(amountInWords('12.05', 'USD')).toBe('Mười hai đô la Mỹ và năm xu');
  });
});

describe('tokens', () => {
  it('issues JWT-shaped tokens that verify, expire, and reject tampering', () => {
    let t = NOW.getTime();
    const issuer = new TokenIssuer(1, () => new Date(t));
    const token = issuer.issue({ ttlMs: 60_000 });
    expect(token.split('.')).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    expect(payload.exp).toBe(Math.floor(t / 1000) + 60);
    expect(issuer.check(`Bearer ${token}`)).toBe('issued');
    expect(issuer.check(`bearer ${token}`)).toBe('issued');
    expect(issuer.check(`Bearer ${SANDBOX_DEV_TOKEN}`)).toBe('dev');
    expect(issuer.check(undefined)).toBe('none');
    expect(issuer.check(token)).toBe('invalid');
    expect(issuer.check(`Bearer ${token.slice(0, -2)}xx`)).toBe('invalid');
    expect(new TokenIssuer(2, () => new Date(t)).check(`Bearer ${token}`)).toBe('invalid');
    t += 61_000;
    expect(issuer.check(`Bearer ${token}`)).toBe('expired');
  });
});

describe('quirks', () => {
  it('accepts known values and rejects others', () => {
    expect(checkQuirks({ casing: 'pascal', dataEncoding: 'double', emailStatus: 4 })).toEqual({ casing: 'pascal', dataEncoding: 'double', emailStatus: 4 });
    expect(() => checkQuirks({ casing: 'snake' })).toThrow(/bad value/);
    expect(() => checkQuirks({ nope: true })).toThrow(/unknown quirk/);
    expect(() => checkQuirks({ maxDownloadIds: 0 })).toThrow(/bad value/);
    expect(DEFAULT_QUIRKS.maxDownloadIds).toBe(50);
  });
});

describe('validateInvoiceData', () => {
  it('accepts the sample', () => {
    const r = validateInvoiceData(sampleInvoiceData());
    expect(r.errors).toEqual([]);
    expect(r.invoice?.TotalAmountOC).toBe(1_129_200);
  });
  it('reports RequireError_{Field}, InvoiceDetail_{Field} and TaxRateInfo_VATRateName', () => {
    const inv = sampleInvoiceData() as unknown as Record<string, unknown>;
    delete inv.InvSeries;
    inv.BuyerLegalName = '';
    inv.OriginalInvoiceDetail = [{ ItemType: 9, LineNumber: 1.5, ItemName: '', Quantity: 'x', UnitPrice: 1, AmountOC: 1, VATRateName: '7%' }];
    inv.TaxRateInfo = [{ VATRateName: 'abc', AmountWithoutVATOC: 1, VATAmountOC: 0 }];
    const { errors, invoice } = validateInvoiceData(inv);
    expect(invoice).toBeUndefined();
    expect(errors).toEqual(
      expect.arrayContaining([
        'RequireError_InvSeries',
        'RequireError_BuyerLegalName',
        'InvoiceDetail_ItemType',
        'InvoiceDetail_LineNumber',
        'InvoiceDetail_ItemName',
        'InvoiceDetail_Quantity',
        'InvoiceDetail_VATRateName',
        'TaxRateInfo_VATRateName',
      ]),
    );
  });
  it('reads field names case-insensitively and checks the tax code', () => {
    const lower = Object.fromEntries(Object.entries(sampleInvoiceData()).map(([k, v]) => [k.toLowerCase(), v]));
    expect(validateInvoiceData(lower).errors).toEqual([]);
    expect(validateInvoiceData({ ...sampleInvoiceData(), BuyerTaxCode: '12345' }).errors).toContain('InvalidTaxCode');
    expect(validateInvoiceData([]).errors).toEqual(['RequireError_InvoiceData']);
  });
});

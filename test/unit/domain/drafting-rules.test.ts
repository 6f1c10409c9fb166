/** Rules the drafting screen used to hold itself, now in common/ and shared with main. */
import { describe, expect, it } from 'vitest';
import {
  buyerFieldsFrom,
  changeLineType,
  computeInvoice,
  computeOptionsFromSettings,
  DEFAULT_VAT_LABEL,
  emptyDraft,
  emptyLine,
  markRefused,
  newLineAfter,
  showsAmounts,
  showsDiscount,
  withCatalogueItem,
} from '../../../common/money';
import { ItemType } from '../../../common/model/invoice';
import { activeTemplatesFor, isMultiRate, seriesChoiceProblems, templateAllowed, type SeriesTemplate } from '../../../common/rules';
import { validateDraft } from '../../../common/validation';
import { DEFAULT_SETTINGS } from '../../../common/calls/settings';

describe('line types', () => {
  it('a note drops its amounts; back to goods brings a quantity and a rate', () => {
    const goods = { ...emptyLine(ItemType.Goods), ItemName: 'Trà', Quantity: '2', UnitPrice: '10000', DiscountRate: '5', VATRateName: '10%' };
    const note = changeLineType(goods, ItemType.Note);
    expect(note).toMatchObject({ ItemType: 4, ItemName: 'Trà', Quantity: '', UnitPrice: '', DiscountRate: '', VATRateName: '' });
    expect(changeLineType(note, ItemType.Goods)).toMatchObject({ ItemType: 1, Quantity: '1', VATRateName: DEFAULT_VAT_LABEL });
    expect(changeLineType(goods, ItemType.TradeDiscount)).toMatchObject({ ItemType: 3, DiscountRate: '', DiscountAmountOC: '', UnitPrice: '10000' });
  });

  it('a new line copies the rate of the line above, else starts at the default rate', () => {
    expect(newLineAfter(undefined).VATRateName).toBe('8%');
    expect(newLineAfter({ ...emptyLine(1), VATRateName: 'KCT' }).VATRateName).toBe('KCT');
    expect(newLineAfter({ ...emptyLine(4) }).VATRateName).toBe(DEFAULT_VAT_LABEL);
    expect(newLineAfter(undefined, ItemType.Note).VATRateName).toBe('');
  });

  it('which cells a line type shows', () => {
    expect([1, 2, 3, 4, 5].map(showsAmounts)).toEqual([true, true, true, false, true]);
    expect([1, 2, 3, 4, 5].map(showsDiscount)).toEqual([true, false, false, false, true]);
  });
});

describe('picking from the catalogues', () => {
  const item = { code: 'G1', name: 'Gạo', unit: 'kg', price: '25000', vatRate: '5%' };
  it('an item fills the line; a note line takes no VAT rate', () => {
    expect(withCatalogueItem(emptyLine(1), item)).toEqual({ ItemCode: 'G1', ItemName: 'Gạo', UnitName: 'kg', UnitPrice: '25000', VATRateName: '5%' });
    expect(withCatalogueItem(emptyLine(4), item)).not.toHaveProperty('VATRateName');
  });
  it('a buyer fills what the catalogue knows and leaves the rest as typed', () => {
    const b = { legalName: 'Công ty An Phát', taxCode: '0101243150', address: 'Hà Nội', contact: '', email: 'kt@anphat.vn', phone: '', code: '' };
    expect(buyerFieldsFrom(b)).toEqual({ BuyerLegalName: 'Công ty An Phát', BuyerTaxCode: '0101243150', BuyerAddress: 'Hà Nội', BuyerEmail: 'kt@anphat.vn' });
  });
});

describe('totals options from settings', () => {
  it('carries the words settings', () => {
    expect(computeOptionsFromSettings(undefined)).toEqual({});
    const o = computeOptionsFromSettings({ amountInWords: { ...DEFAULT_SETTINGS.amountInWords, thousand: 'ngàn', even: false } });
    expect(o.words).toMatchObject({ thousand: 'ngàn', chan: false });
  });
});

describe('series choice', () => {
  const tpl = (series: string, more: boolean, extra: Partial<SeriesTemplate> = {}): SeriesTemplate => ({
    series,
    inactive: false,
    ticket: false,
    isMoreVATRate: more,
    ...extra,
  });
  const templates = [tpl('1C26TAA', false), tpl('1C26TBH', true), tpl('1C26TXD', false, { inactive: true }), tpl('5C26TVE', false, { ticket: true })];
  const twoRates = {
    ...emptyDraft({ RefID: '', InvDate: '2026-01-02' }),
    lines: [
      { ...emptyLine(1), ItemName: 'A', UnitPrice: '100', VATRateName: '8%' },
      { ...emptyLine(1), ItemName: 'B', UnitPrice: '100', VATRateName: '10%' },
    ],
  };

  it('knows a multi-rate draft', () => {
    expect(isMultiRate(computeInvoice(twoRates).taxRates)).toBe(true);
    expect(isMultiRate(computeInvoice({ ...twoRates, lines: twoRates.lines.slice(0, 1) }).taxRates)).toBe(false);
  });

  it('offers active templates of the kind and allows a one-rate template only for one rate', () => {
    expect(activeTemplatesFor(templates, false).map((t) => t.series)).toEqual(['1C26TAA', '1C26TBH']);
    expect(templateAllowed(templates[0]!, true)).toBe(false);
    expect(templateAllowed(templates[1]!, true)).toBe(true);
    expect(seriesChoiceProblems({ series: '1C26TAA', isTicket: false, multiRate: true, templates })).toMatchObject([
      { code: 'series.multiRate', severity: 'error', path: 'InvSeries' },
    ]);
    expect(seriesChoiceProblems({ series: '1C26TBH', isTicket: false, multiRate: true, templates })).toEqual([]);
    expect(seriesChoiceProblems({ series: '1C26TXD', isTicket: false, multiRate: false, templates })).toMatchObject([
      { code: 'series.notActive', severity: 'warning' },
    ]);
    expect(seriesChoiceProblems({ series: '1C26TAA', isTicket: false, multiRate: true, templates: [] })).toEqual([]);
  });
});

describe('refused typed numbers in the draft', () => {
  it('are errors that explain the reading, and count as zero', () => {
    const draft = {
      ...emptyDraft({ RefID: '', InvDate: '2026-01-02' }),
      lines: [{ ...emptyLine(1), ItemName: 'A', Quantity: markRefused('1.500'), UnitPrice: markRefused('25.00'), VATRateName: '8%' }],
      ExchangeRate: '1',
    };
    const v = validateDraft(draft, { now: new Date('2026-01-03T00:00:00Z') });
    const q = v.problems.find((p) => p.path === 'lines[0].Quantity');
    expect(q).toMatchObject({ code: 'number.ambiguous', severity: 'error' });
    expect(q!.messageVi).toContain('Dòng 1, số lượng');
    expect(q!.messageVi).toContain('1500');
    expect(v.problems.find((p) => p.path === 'lines[0].UnitPrice')).toMatchObject({ code: 'number.dotGroups' });
    expect(v.computed.totals.TotalAmountOC.isZero()).toBe(true);
  });
});

/** checkForIssue: the draft check plus what the service refuses at issuing, each with its path. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyDraft, emptyLine, type DraftLine, type InvoiceDraft } from '../../../common/money';
import { checkForIssue, issueBlocked, MAX_LINES_PER_INVOICE, type IssueContext } from '../../../common/rules';

const NOW = new Date('2026-03-10T03:00:00Z');
const TEMPLATE = { IPTemplateID: 't1', InvSeries: '1C26TAA', Inactive: false, IsSendSummary: false, IsMoreVATRate: true };
const line = (o: Partial<DraftLine> = {}): DraftLine => ({ ...emptyLine(1), ItemName: 'Cà phê', UnitPrice: '25000', ...o });
function good(over: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return emptyDraft({
    RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
    InvDate: '2026-03-10',
    InvSeries: '1C26TAA',
    lines: [line(), line({ VATRateName: '8%' })],
    ...over,
  });
}
const ctx = (over: Partial<IssueContext> = {}): IssueContext => ({ template: TEMPLATE, now: NOW, ...over });
const found = (d: InvoiceDraft, c: IssueContext = ctx()) => checkForIssue(d, c).problems.map((p) => [p.path, p.code, p.severity]);

describe('checkForIssue', () => {
  it('a good draft with an active multi-rate template passes and yields the issuing form', () => {
    const r = checkForIssue(good(), ctx({ lastIssuedDates: { '1C26TAA': '2026-03-09' } }));
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.form.data.TotalAmount).toBe(25000 + 2500 + 25000 + 2000);
  });

  it('returns the draft problems together with the issue problems', () => {
    const d = good({ BuyerTaxCode: '123' });
    d.lines = Array.from({ length: MAX_LINES_PER_INVOICE + 1 }, () => line());
    expect(found(d)).toEqual([
      ['BuyerLegalName', 'required.BuyerLegalName', 'error'],
      ['BuyerAddress', 'required.BuyerAddress', 'error'],
      ['BuyerTaxCode', 'taxCode.format', 'error'],
      ['lines', 'issue.tooManyLines', 'error'],
    ]);
    const r = checkForIssue(d, ctx());
    expect(r.errors.at(-1)!.message).toContain('Split it into 2 invoices');
    expect(r.errors.at(-1)!.messageVi).toContain('tách thành 2 hóa đơn');
    d.lines.pop();
    expect(found(d).map((p) => p[1])).not.toContain('issue.tooManyLines');
  });

  it('template: chosen, active, same series, matching the invoice kind', () => {
    expect(found(good(), ctx({ template: null }))).toEqual([['InvSeries', 'issue.template', 'error']]);
    expect(found(good(), ctx({ template: { ...TEMPLATE, Inactive: true } }))).toEqual([['InvSeries', 'issue.templateInactive', 'error']]);
    expect(found(good({ InvSeries: '1C26TBB' }))).toEqual([['InvSeries', 'issue.templateSeries', 'error']]);
    const ticketSeries = { ...TEMPLATE, InvSeries: '5C26TAA' };
    expect(found(good({ InvSeries: '5C26TAA' }), ctx({ template: ticketSeries }))).toEqual([['IsTicket', 'issue.kind', 'error']]);
    expect(found(good({ InvSeries: '5C26TAA', IsTicket: true }), ctx({ template: ticketSeries }))).toEqual([]);
    expect(found(good({ IsTicket: true }))).toEqual([['IsTicket', 'issue.kind', 'error']]);
  });

  it('several rates only when the template allows them', () => {
    const single = { ...TEMPLATE, IsMoreVATRate: false };
    const r = checkForIssue(good(), ctx({ template: single }));
    expect(r.problems.map((p) => [p.path, p.code])).toEqual([['TaxRateInfo', 'issue.multiRate']]);
    expect(r.problems[0]!.message).toContain('8%, 10%');
    expect(found(good({ lines: [line(), line()] }), ctx({ template: single }))).toEqual([]);
  });

  it("series year digits differ from InvDate's year: a warning, not a block", () => {
    const d = good({ InvSeries: '1C25TAA' });
    const r = checkForIssue(d, ctx({ template: { ...TEMPLATE, InvSeries: '1C25TAA' } }));
    expect(r.problems.map((p) => [p.path, p.code, p.severity])).toEqual([['InvSeries', 'series.year', 'warning']]);
    expect(r.ok).toBe(true);
  });

  it('InvDate not before the last date issued on that series (when known)', () => {
    expect(found(good(), ctx({ lastIssuedDates: { '1C26TAA': '2026-03-11' } }))).toEqual([['InvDate', 'issue.dateBeforeLast', 'error']]);
    expect(found(good(), ctx({ lastIssuedDates: { '1C26TAA': '2026-03-10T15:00:00' } }))).toEqual([]);
    expect(found(good(), ctx({ lastIssuedDates: { '1C26TBB': '2026-03-11' } }))).toEqual([]);
  });

  it('the amount in words must be present (hand-typed words emptied)', () => {
    expect(found(good(), ctx({ typedWords: '   ' }))).toEqual([['TotalAmountInWords', 'issue.words', 'error']]);
  });

  it('a figure the digit settings would change is an error naming the line; a bad setting is named too', () => {
    const d = good({ lines: [line({ Quantity: '1.25' })] });
    const r = checkForIssue(d, ctx({ digits: { QuantityDecimalDigits: 1 } }));
    expect(r.errors.map((p) => [p.path, p.code])).toEqual([['lines[0].Quantity', 'issue.digits']]);
    expect(r.errors[0]!.message).toBe("Line 1: the quantity 1.25 has more decimal places than the shop's setting allows (1); it would be issued as 1.3.");
    expect(r.errors[0]!.messageVi).toBe('Dòng 1: số lượng 1.25 có nhiều chữ số thập phân hơn thiết lập cho phép (1); sẽ được phát hành là 1.3.');
    expect(found(d, ctx({ digits: { QuantityDecimalDigits: -1 } }))).toEqual([['OptionUserDefined.QuantityDecimalDigits', 'issue.digitsSetting', 'error']]);
  });

  it('converted amounts too large for a JSON number are refused', () => {
    // 37 × 9 876 543 210.23 = 365 432 098 778.51 USD (15 digits: fits); × 25 150.61 = 9 190 840 197 859 780.7… → …781 VND: above 2^53 and odd, so no JSON number holds it
    const d = good({ CurrencyCode: 'USD', ExchangeRate: '25150.61', lines: [line({ Quantity: '37', UnitPrice: '9876543210.23', VATRateName: 'KCT' })] });
    const r = checkForIssue(d, ctx());
    // the draft check already sees TotalAmountVND; the issuing check names every converted amount
    expect(r.problems.map((p) => [p.path, p.code])).toEqual([
      ['TotalAmountVND', 'amount.tooLarge'],
      ['ExchangeRate', 'amount.tooLarge'],
    ]);
    expect(r.problems[1]!.message).toContain('lines[0].Amount, lines[0].AmountWithoutVAT');
    expect(r.form.inexact).toContain('lines[0].Amount');
  });

  it('the email to the buyer must be valid when asked for', () => {
    expect(found(good(), ctx({ sendEmail: { name: 'A', email: 'a@abc.vn; b@abc' } }))).toEqual([['ReceiverEmail', 'email.format', 'error']]);
    expect(found(good(), ctx({ sendEmail: { name: 'A', email: 'a@abc.vn' } }))).toEqual([]);
  });

  it('an 8 % line after its window stays a warning at issue time (the service has the last word)', () => {
    const d = good({ InvDate: '2027-01-05', InvSeries: '1C27TAA' });
    const r = checkForIssue(d, ctx({ template: { ...TEMPLATE, InvSeries: '1C27TAA' }, now: new Date('2027-01-05T03:00:00Z') }));
    expect(r.problems.map((p) => [p.path, p.code, p.severity])).toEqual([['lines[1].VATRateName', 'vat.outsideWindow', 'warning']]);
  });
});

describe('checkForIssue on anything typed', () => {
  it('never throws, and every problem is located, in both languages', () => {
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1', '1.25', '-3', '1e5', '', '25.000', '1,5', '0.0001'));
    const lineArb = fc.record({
      ItemType: fc.constantFrom(1, 2, 3, 4, 5) as fc.Arbitrary<DraftLine['ItemType']>,
      ItemCode: fc.string({ maxLength: 4 }),
      ItemName: fc.string({ maxLength: 8 }),
      UnitName: fc.constant(''),
      Quantity: text,
      UnitPrice: text,
      DiscountRate: text,
      DiscountAmountOC: text,
      discountBy: fc.constantFrom('rate', 'amount') as fc.Arbitrary<'rate' | 'amount'>,
      VATRateName: fc.constantFrom('8%', '10%', 'KCT', 'KHAC:3.5%', '7%', ''),
    });
    const arb = fc.record({
      lines: fc.array(lineArb, { maxLength: 8 }),
      InvDate: fc.constantFrom('2026-03-10', '2027-01-05', '2026-02-30', ''),
      InvSeries: fc.constantFrom('1C26TAA', '5C26TAA', '1C27TAA', 'xx', ''),
      CurrencyCode: fc.constantFrom('VND', 'USD', ''),
      ExchangeRate: text,
      BuyerIDNumber: fc.option(fc.string({ maxLength: 14 }), { nil: undefined }),
      BuyerBudgetCode: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      reason: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
      digits: fc.dictionary(fc.constantFrom('QuantityDecimalDigits', 'AmountDecimalDigits', 'ExchangRateDecimalDigits'), fc.integer({ min: -2, max: 30 })),
      template: fc.option(fc.record({ InvSeries: fc.constantFrom('1C26TAA', '5C26TAA', ''), Inactive: fc.boolean(), IsMoreVATRate: fc.boolean() }), {
        nil: null,
      }),
      last: fc.constantFrom('2026-03-11', 'garbage', '2026-01-01'),
    });
    fc.assert(
      fc.property(arb, (a) => {
        const d = good({
          lines: a.lines,
          InvDate: a.InvDate,
          InvSeries: a.InvSeries,
          CurrencyCode: a.CurrencyCode,
          ExchangeRate: a.ExchangeRate,
          BuyerIDNumber: a.BuyerIDNumber,
          BuyerBudgetCode: a.BuyerBudgetCode,
        });
        if (a.reason !== undefined)
          d.correction = {
            ReferenceType: 2,
            OrgInvoiceType: 1,
            OrgInvTemplateNo: '1',
            OrgInvSeries: 'C26TAA',
            OrgInvNo: '00000001',
            OrgInvDate: '2026-03-01',
            InvoiceNote: a.reason,
          };
        const r = checkForIssue(d, ctx({ template: a.template, digits: a.digits, lastIssuedDates: { '1C26TAA': a.last } }));
        for (const p of r.problems) {
          expect(p.path.length).toBeGreaterThan(0);
          expect(p.message.length * p.messageVi.length).toBeGreaterThan(0);
        }
        expect(r.ok).toBe(r.errors.length === 0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('issueBlocked', () => {
  const error = (en: string, vi: string) => ({ message: en, messageVi: vi });
  it('says the first error as a sentence, and how many more, in both languages', () => {
    const first = error('Line 1: the quantity "abc" is not a number.', 'Dòng 1: số lượng "abc" không phải là số.');
    expect(issueBlocked([first])).toEqual({
      en: 'The invoice cannot be issued yet: Line 1: the quantity "abc" is not a number.',
      vi: 'Chưa phát hành được hóa đơn: Dòng 1: số lượng "abc" không phải là số.',
    });
    expect(issueBlocked([first, error('invalid', 'không hợp lệ')]).en).toBe(
      'The invoice cannot be issued yet: Line 1: the quantity "abc" is not a number (and 1 more error).',
    );
    expect(issueBlocked([first, first, first, first])).toMatchObject({
      en: expect.stringMatching(/\(and 3 more errors\)\.$/),
      vi: expect.stringMatching(/\(và 3 lỗi khác\)\.$/),
    });
    expect(issueBlocked([error('InvDate: invalid', 'InvDate: không hợp lệ')]).vi).toBe('Chưa phát hành được hóa đơn: InvDate: không hợp lệ.');
  });
  it('ends once whatever the first error ends with, and says something with no error given', () => {
    const asking = error('Is the buyer a business?', 'Người mua có phải doanh nghiệp không?');
    expect(issueBlocked([asking]).en).toBe('The invoice cannot be issued yet: Is the buyer a business?');
    expect(issueBlocked([asking, asking])).toEqual({
      en: 'The invoice cannot be issued yet: Is the buyer a business (and 1 more error).',
      vi: 'Chưa phát hành được hóa đơn: Người mua có phải doanh nghiệp không (và 1 lỗi khác).',
    });
    expect(issueBlocked([])).toEqual({ en: 'The invoice cannot be issued yet.', vi: 'Chưa phát hành được hóa đơn.' });
  });
});

import { describe, expect, it } from 'vitest';
import type { IssuedInvoice } from '../../../common/calls/register';
import {
  buyerEmails,
  correctionsAllowed,
  customRange,
  dayText,
  downloadGroups,
  issuedStatus,
  parseDayText,
  presetRange,
} from '../../../common/rules/issued-register';

const inv = (o: Partial<IssuedInvoice>): IssuedInvoice => ({
  transactionId: 'TX1',
  refId: null,
  invSeries: '1C26TAA',
  invNo: '00000012',
  invDate: '2026-11-03',
  kind: 'withCode',
  buyerName: 'Công ty TNHH Hoa Sen',
  buyerTaxCode: '0101243150',
  buyerEmail: 'ketoan@hoasen.vn',
  currency: 'VND',
  total: '1100000',
  totalWithoutVat: '1000000',
  totalVat: '100000',
  invoiceCode: null,
  sendTaxStatus: null,
  eInvoiceStatus: 1,
  referenceType: 0,
  original: null,
  correctedBy: null,
  email: 'off',
  download: 'off',
  source: 'sync',
  ...o,
});

describe('the register screen rules', () => {
  it('date ranges are days in Vietnam: today, the week from Monday, the month from the 1st', () => {
    // 2026-11-26 is a Thursday; 20:00 UTC is already Friday the 27th in Vietnam.
    const at = new Date('2026-11-26T20:00:00Z');
    expect(presetRange('today', at)).toEqual({ from: '2026-11-27', to: '2026-11-27' });
    expect(presetRange('week', at)).toEqual({ from: '2026-11-23', to: '2026-11-27' });
    expect(presetRange('month', at)).toEqual({ from: '2026-11-01', to: '2026-11-27' });
    // A Monday's week is that day alone; a Sunday's goes back six days.
    expect(presetRange('week', new Date('2026-11-23T03:00:00Z')).from).toBe('2026-11-23');
    expect(presetRange('week', new Date('2026-11-29T03:00:00Z')).from).toBe('2026-11-23');
  });

  it('dates are typed and shown dd/mm/yyyy; a wrong one or a reversed range names its end', () => {
    expect(dayText('2026-11-03')).toBe('03/11/2026');
    expect(parseDayText('3/11/2026')).toBe('2026-11-03');
    expect(parseDayText('03.11.2026')).toBe('2026-11-03');
    expect(parseDayText('31/02/2026')).toBeNull();
    expect(parseDayText('2026-11-03')).toBeNull();
    expect(customRange('01/11/2026', '30/11/2026')).toEqual({ ok: true, range: { from: '2026-11-01', to: '2026-11-30' } });
    expect(customRange('x', '30/11/2026')).toEqual({ ok: false, field: 'from', reason: 'date' });
    expect(customRange('30/11/2026', '01/11/2026')).toEqual({ ok: false, field: 'to', reason: 'order' });
  });

  it('status in words from SendTaxStatus and EInvoiceStatus', () => {
    expect(issuedStatus(inv({ sendTaxStatus: 2 })).words.map((w) => w.vi)).toEqual(['Cơ quan thuế đã chấp nhận']);
    expect(issuedStatus(inv({ sendTaxStatus: 3 })).words[0]!.en).toBe('Rejected by the tax authority');
    expect(issuedStatus(inv({ sendTaxStatus: 1, eInvoiceStatus: 8 })).words.map((w) => w.vi)).toEqual(['Đã gửi cơ quan thuế', 'Đã bị điều chỉnh']);
    expect(issuedStatus(inv({ sendTaxStatus: 2, eInvoiceStatus: 7 })).relation).toBe('replaced');
    expect(issuedStatus(inv({ sendTaxStatus: null, eInvoiceStatus: null, referenceType: 2 }))).toMatchObject({ tax: 'pending', relation: 'adjustment' });
    expect(issuedStatus(inv({ sendTaxStatus: 9 })).tax).toBe('pending');
  });

  it('a replaced invoice is corrected through its replacement; an adjusted one only adjusted again', () => {
    expect(correctionsAllowed(inv({ eInvoiceStatus: 1 }))).toEqual({ adjust: true, replace: true });
    expect(correctionsAllowed(inv({ eInvoiceStatus: 8 }))).toEqual({ adjust: true, replace: false });
    expect(correctionsAllowed(inv({ eInvoiceStatus: 7 }))).toEqual({ adjust: false, replace: false });
  });

  it('a selection becomes one download job per kind and one email per buyer with an address', () => {
    const rows = [
      inv({ transactionId: 'A' }),
      inv({ transactionId: 'B', kind: 'withoutCode', buyerEmail: 'a@x.vn, khong-phai-email' }),
      inv({ transactionId: 'C', buyerEmail: '' }),
    ];
    expect(downloadGroups(rows)).toEqual([
      { kind: 'withCode', ids: ['A', 'C'] },
      { kind: 'withoutCode', ids: ['B'] },
    ]);
    const e = buyerEmails(rows);
    expect(e.entries).toEqual([
      { transactionId: 'A', receiverName: 'Công ty TNHH Hoa Sen', receiverEmail: 'ketoan@hoasen.vn', kind: 'withCode' },
      { transactionId: 'B', receiverName: 'Công ty TNHH Hoa Sen', receiverEmail: 'a@x.vn', kind: 'withoutCode' },
    ]);
    expect(e.missing.map((r) => r.transactionId)).toEqual(['C']);
  });
});

import { describe, expect, it } from 'vitest';
import { describeErrorCode, isAuthCode } from '../../../common/envelope';

const KNOWN = [
  'InvalidAppID',
  'InActiveAppID',
  'UnAuthorize',
  'TokenExpiredCode',
  'InvalidTokenCode',
  'TaxRateInfo_VATRateName',
  'InvoiceQuantityTooLarge',
  'XMLTooLong',
  'InvalidTaxCode',
  'DuplicateInvoiceRefID',
  'InvalidTransactionID',
  'InvoiceNotExist',
  'InvoiceDeleted',
  'LicenseInfo_NotBuy',
  'LicenseInfo_OutOfInvoice',
  'LicenseInfo_Expired',
];

describe('describeErrorCode', () => {
  it.each(KNOWN)('%s has a plain message in both languages, not the bare code', (code) => {
    const d = describeErrorCode(code);
    expect(d.known).toBe(true);
    expect(d.en).not.toContain(code);
    expect(d.vi).not.toContain(code);
    expect(d.vi).not.toBe(d.en);
    expect(d.en.length).toBeGreaterThan(10);
  });

  it('matches case-insensitively and trims', () => {
    expect(describeErrorCode(' invoicenotexist ')).toMatchObject({ code: 'InvoiceNotExist', known: true, category: 'item' });
  });

  it('names the field for RequireError_{Field} and InvoiceDetail_{Field}', () => {
    expect(describeErrorCode('RequireError_BuyerLegalName')).toMatchObject({ known: true, category: 'data' });
    expect(describeErrorCode('RequireError_BuyerLegalName').en).toContain('BuyerLegalName');
    expect(describeErrorCode('InvoiceDetail_Quantity').vi).toContain('Quantity');
  });

  it('shows unknown codes verbatim', () => {
    const d = describeErrorCode('SomethingNew_42');
    expect(d.known).toBe(false);
    expect(d.en).toContain('SomethingNew_42');
    expect(d.vi).toContain('SomethingNew_42');
  });

  it('isAuthCode', () => {
    expect(isAuthCode('tokenexpiredcode')).toBe(true);
    expect(isAuthCode('InvalidAppID')).toBe(true);
    expect(isAuthCode('InvoiceNotExist')).toBe(false);
    expect(isAuthCode(null)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { describeErrorCode } from '../../../common/envelope';

/** The issuing error codes of the service's documentation (docs/service.md, "Error codes"), with the spellings it uses. */
const ISSUING = [
  'DuplicateInvoiceRefID',
  'InvoiceNumberNotCotinuous',
  'InvoiceDuplicated',
  'InvalidInvoiceData',
  'InvoiceTemplateNotExist',
  'CreateInvoiceDataError',
  'InvalidInvoiceDate',
  'TaxReductionDateInValid',
  'LicenseInfo_NotBuy',
  'LicenseInfo_OutOfInvoice',
  'LicenseInfo_Expired',
  'DeclarationNotExist',
  'InvalidDeclaration',
  'ExistDeclarationNotReceive',
  'InvoiceTemplateNotValidInDeclaration',
  'ExistsInvoiceNextYear',
  'CallSignServiceFail',
  'SignEsignHSMError',
  'SignSoftDream78Exception',
  'InvalidCertByRegistration',
  'CertRevocation',
  'SigningTimeNotInRegistration',
  'HasRegistrationStopUseCert',
  'InvoiceCannotReplace',
  'InvoiceCannotAdjust',
  'HasAdjustmentInvoice',
  'InvalidSignType',
  'InvalidRequestBody',
  'InvalidTaxCode',
  'XMLTooLong',
  'InvoiceQuantityTooLarge',
  'Exception',
];

describe('issuing error codes', () => {
  it.each(ISSUING)('%s has plain words in both languages, not the code', (code) => {
    const d = describeErrorCode(code);
    expect(d).toMatchObject({ code, known: true });
    expect(d.category).not.toBe('unknown');
    expect(d.en).not.toContain(code);
    expect(d.vi).not.toContain(code);
    expect(d.vi).not.toBe(d.en);
  });

  it('keeps the service\'s misspelling: "Cotinuous" is known, a corrected spelling is not', () => {
    expect(describeErrorCode('invoicenumbernotcotinuous')).toMatchObject({ code: 'InvoiceNumberNotCotinuous', category: 'busy' });
    expect(describeErrorCode('InvoiceNumberNotContinuous').known).toBe(false);
  });

  it('sorts them by what the shop can do about them', () => {
    expect(describeErrorCode('CertRevocation').category).toBe('signing');
    expect(describeErrorCode('DeclarationNotExist').category).toBe('registration');
    expect(describeErrorCode('CallSignServiceFail').category).toBe('service');
    expect(describeErrorCode('InvalidInvoiceDate').category).toBe('data');
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DownloadInvoiceResultSchema,
  InvoiceDataSchema,
  InvoiceTemplateSchema,
  SendEmailParameterSchema,
  SendEmailResultSchema,
  SendEmailStatus,
  TaxRateInfoSchema,
  WireNumber,
} from '../../../common/model';

// Shapes follow the resources described in docs/service.md#resources.
const sampleInvoice = {
  RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
  InvSeries: '1C25TAA',
  InvoiceName: 'Hóa đơn giá trị gia tăng',
  InvDate: '2025-06-15',
  CurrencyCode: 'VND',
  ExchangeRate: 1.0,
  PaymentMethodName: 'TM/CK',
  IsTicket: false,
  BuyerLegalName: 'Công ty TNHH ABC',
  BuyerTaxCode: '0101243150',
  BuyerAddress: '1 Tràng Tiền, Hoàn Kiếm, Hà Nội',
  BuyerCode: 'KH001',
  BuyerPhoneNumber: '0912345678',
  BuyerEmail: 'ketoan@abc.vn',
  BuyerFullName: 'Nguyễn Văn A',
  BuyerBankAccount: '0011001234567',
  BuyerBankName: 'Vietcombank',
  TotalAmountWithoutVATOC: 1000000,
  TotalVATAmountOC: 100000,
  TotalDiscountAmountOC: 0,
  TotalAmountOC: 1100000,
  TotalAmountInWords: 'Một triệu một trăm nghìn đồng',
  OriginalInvoiceDetail: [
    {
      ItemType: 1,
      LineNumber: 1,
      ItemCode: 'HH01',
      ItemName: 'Bàn làm việc',
      UnitName: 'Chiếc',
      Quantity: 2,
      UnitPrice: 500000,
      DiscountRate: 0,
      DiscountAmountOC: 0,
      AmountOC: 1000000,
      AmountWithoutVATOC: 1000000,
      VATRateName: '10%',
    },
  ],
  TaxRateInfo: [{ VATRateName: '10%', AmountWithoutVATOC: 1000000, VATAmountOC: 100000 }],
};

describe('InvoiceDataSchema', () => {
  it('accepts the sample shape and keeps every field', () => {
    const parsed = InvoiceDataSchema.parse(sampleInvoice);
    expect(parsed).toEqual(sampleInvoice);
  });

  it('passes unknown fields through untouched, at every level', () => {
    const withExtra = {
      ...sampleInvoice,
      FutureField: { nested: [1, 2] },
      OriginalInvoiceDetail: [{ ...sampleInvoice.OriginalInvoiceDetail[0], LineExtra: 'x' }],
      TaxRateInfo: [{ ...sampleInvoice.TaxRateInfo[0], RowExtra: null }],
    };
    const parsed = InvoiceDataSchema.parse(withExtra) as Record<string, unknown>;
    expect(parsed.FutureField).toEqual({ nested: [1, 2] });
    expect((parsed.OriginalInvoiceDetail as Record<string, unknown>[])[0]!.LineExtra).toBe('x');
    expect((parsed.TaxRateInfo as Record<string, unknown>[])[0]!).toHaveProperty('RowExtra', null);
  });

  it('accepts numeric strings and outputs numbers', () => {
    const parsed = InvoiceDataSchema.parse({ ...sampleInvoice, TotalAmountOC: ' 1100000 ', ExchangeRate: '24500.5' });
    expect(parsed.TotalAmountOC).toBe(1100000);
    expect(parsed.ExchangeRate).toBe(24500.5);
  });

  it('rejects non-numeric strings, empty strings and bad dates', () => {
    expect(InvoiceDataSchema.safeParse({ ...sampleInvoice, TotalAmountOC: 'abc' }).success).toBe(false);
    expect(InvoiceDataSchema.safeParse({ ...sampleInvoice, TotalAmountOC: '' }).success).toBe(false);
    expect(InvoiceDataSchema.safeParse({ ...sampleInvoice, InvDate: '15/06/2025' }).success).toBe(false);
    expect(InvoiceDataSchema.safeParse({ ...sampleInvoice, OriginalInvoiceDetail: undefined }).success).toBe(false);
  });

  it('rejects a fractional ItemType and reports the line path', () => {
    const r = InvoiceDataSchema.safeParse({
      ...sampleInvoice,
      OriginalInvoiceDetail: [{ ...sampleInvoice.OriginalInvoiceDetail[0], ItemType: 1.5 }],
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['OriginalInvoiceDetail', 0, 'ItemType']);
  });

  it('accepts null optional buyer fields', () => {
    expect(InvoiceDataSchema.safeParse({ ...sampleInvoice, BuyerEmail: null, BuyerTaxCode: null }).success).toBe(true);
  });

  it('tax-rate rows need a label and amounts', () => {
    expect(TaxRateInfoSchema.safeParse({ VATRateName: 'KCT', AmountWithoutVATOC: 5, VATAmountOC: 0 }).success).toBe(true);
    expect(TaxRateInfoSchema.safeParse({ VATRateName: 'KCT', AmountWithoutVATOC: 5 }).success).toBe(false);
  });
});

describe('WireNumber', () => {
  it.each([
    [1, 1],
    ['1', 1],
    ['-2.50', -2.5],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('%j → %j', (input, out) => {
    expect(WireNumber.parse(input)).toBe(out);
  });
  it.each([['1,5'], ['NaN'], [NaN], [Infinity], ['Infinity'], [null], [true], ['1 000']])('rejects %j', (input) => {
    expect(WireNumber.safeParse(input).success).toBe(false);
  });
});

describe('DownloadInvoiceResultSchema', () => {
  it('accepts lower-case data', () => {
    const r = DownloadInvoiceResultSchema.parse({ TransactionID: 'T1', data: 'JVBERi0=', ErrorCode: '' });
    expect(r.data).toBe('JVBERi0=');
  });
  it('accepts capitalised Data and exposes it as data, keeping the original key', () => {
    const r = DownloadInvoiceResultSchema.parse({ TransactionID: 'T1', Data: '<xml/>', ErrorCode: null }) as Record<string, unknown>;
    expect(r.data).toBe('<xml/>');
    expect(r.Data).toBe('<xml/>');
  });
  it('accepts a per-item error without data', () => {
    const list = z.array(DownloadInvoiceResultSchema).parse([
      { TransactionID: 'T1', data: 'x', ErrorCode: '' },
      { TransactionID: 'BAD', data: null, ErrorCode: 'InvalidTransactionID' },
    ]);
    expect(list[1]!.ErrorCode).toBe('InvalidTransactionID');
  });
  it('requires TransactionID', () => {
    expect(DownloadInvoiceResultSchema.safeParse({ data: 'x' }).success).toBe(false);
  });
});

describe('SendEmail schemas', () => {
  const sampleParam = {
    SendEmailDatas: [
      {
        TransactionID: 'TX123',
        ReceiverName: 'Nguyễn Văn A',
        ReceiverEmail: 'a@abc.vn;b@abc.vn',
        CCEmail: null,
        BCCEmail: null,
        ReplyEmail: 'ketoan@seller.vn',
      },
    ],
    IsInvoiceCode: true,
    IsInvoiceCalculatingMachine: false,
  };
  it('accepts the sample request, BCCEmail included', () => {
    expect(SendEmailParameterSchema.parse(sampleParam)).toEqual(sampleParam);
  });
  it('accepts a request without BCCEmail and with null IsInvoiceCalculatingMachine', () => {
    const { BCCEmail: _b, ...rest } = sampleParam.SendEmailDatas[0]!;
    expect(SendEmailParameterSchema.safeParse({ ...sampleParam, SendEmailDatas: [rest], IsInvoiceCalculatingMachine: null }).success).toBe(true);
  });
  it('the sample result (status 3, empty ErrorCode) is OK', () => {
    const r = SendEmailResultSchema.parse({
      TransactionID: 'TX123',
      RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
      RefDetailID: '0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
      SendEmailStatus: 3,
      ErrorCode: '',
    });
    expect(r.SendEmailStatus).toBe(SendEmailStatus.Sent);
  });
  it('the five statuses have the documented values', () => {
    expect(SendEmailStatus).toEqual({ NotSent: 0, Sending: 1, SendError: 2, Sent: 3, Requested: 4 });
  });
  it('accepts each status 0..4 (also as a string) and rejects others', () => {
    for (const s of [0, 1, 2, 3, 4, '2']) {
      expect(SendEmailResultSchema.safeParse({ TransactionID: 'T', SendEmailStatus: s }).success).toBe(true);
    }
    for (const s of [5, -1, 1.5, 'x', null]) {
      expect(SendEmailResultSchema.safeParse({ TransactionID: 'T', SendEmailStatus: s }).success).toBe(false);
    }
  });
});

describe('InvoiceTemplateSchema', () => {
  const sampleTemplate = {
    IPTemplateID: '0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f',
    TemplateName: 'Hóa đơn GTGT',
    InvSeries: '1C25TAA',
    Inactive: false,
    IsInheritFromOldTemplate: false,
    IsSendSummary: false,
    IsPetrol: null,
    IsMoreVATRate: true,
    CompanyID: 1234,
    InvTemplateNo: '1',
    OrgInvSeries: 'C25TAA',
    TemplateType: 1,
    InvoiceType: 1,
    BusinessAreas: 0,
    SortOrder: 0,
    SignedDate: null,
    CreatedDate: '2025-01-02T08:30:00.000+07:00',
    CreatedBy: null,
    ModifiedDate: '2025-01-02T08:30:00.000+07:00',
    ModifiedBy: null,
    TemplateContent: null,
    DefaultTemplateID: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    IsCustomTemplate: false,
    XsltVersion: null,
    IsPublished: true,
    IsPublishedPetrol: false,
    IsTemplatePetrol: null,
    MappingConfigVat: null,
    ExpireDateType: null,
  };
  it('accepts the sample element with all its extra fields, unchanged', () => {
    expect(z.array(InvoiceTemplateSchema).parse([sampleTemplate])).toEqual([sampleTemplate]);
  });
  it('passes unknown fields through', () => {
    const r = z.array(InvoiceTemplateSchema).parse([{ ...sampleTemplate, BrandNewFlag: 42 }]);
    expect((r[0] as Record<string, unknown>).BrandNewFlag).toBe(42);
  });
  it('needs the series', () => {
    const { InvSeries: _s, ...rest } = sampleTemplate;
    expect(z.array(InvoiceTemplateSchema).safeParse([rest]).success).toBe(false);
  });
});

import type { SandboxInvoice, SandboxInvoiceLine } from './data';

/** Reads a property case-insensitively (the service binds JSON names case-insensitively). */
export function getCI(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object') return undefined;
  const rec = obj as Record<string, unknown>;
  if (key in rec) return rec[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(rec)) if (k.toLowerCase() === lower) return rec[k];
  return undefined;
}

const VAT_LABEL = /^(0%|5%|8%|10%|KCT|KKKNT|KHAC:?\d+(?:[.,]\d+)?%)$/;
const SERIES = /^[1-9][CK]\d{2}[TDLMNBGHX][A-Z0-9]{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAX_CODE = /^(\d{10}(-\d{3})?|\d{12})$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export interface ValidationResult {
  errors: string[];
  invoice?: SandboxInvoice;
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const n = (v: unknown): number => (isNum(v) ? (v as number) : 0);

/**
 * Checks a posted InvoiceData the way the service reports problems:
 * `RequireError_{Field}` for a missing required field, `InvoiceDetail_{Field}` for a bad line,
 * `TaxRateInfo_VATRateName`, `InvalidTaxCode`, `InvalidInvSeries`. Required: RefID (UUID),
 * InvSeries, InvDate, CurrencyCode, at least one line, TotalAmountOC; BuyerLegalName and
 * BuyerAddress when BuyerTaxCode is given. Amounts are taken as posted (the preview shows them).
 */
export function validateInvoiceData(body: unknown): ValidationResult {
  const errors: string[] = [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { errors: ['RequireError_InvoiceData'] };
  const g = (k: string): unknown => getCI(body, k);
  for (const f of ['RefID', 'InvSeries', 'InvDate', 'CurrencyCode']) if (isBlank(g(f))) errors.push(`RequireError_${f}`);
  if (!isBlank(g('RefID')) && !UUID.test(s(g('RefID')))) errors.push('InvalidRefID');
  if (!isBlank(g('InvSeries')) && !SERIES.test(s(g('InvSeries')))) errors.push('InvalidInvSeries');
  if (!isBlank(g('InvDate')) && !DATE.test(s(g('InvDate')))) errors.push('InvalidInvDate');
  const taxCode = s(g('BuyerTaxCode')).trim();
  if (taxCode) {
    if (!TAX_CODE.test(taxCode)) errors.push('InvalidTaxCode');
    if (isBlank(g('BuyerLegalName'))) errors.push('RequireError_BuyerLegalName');
    if (isBlank(g('BuyerAddress'))) errors.push('RequireError_BuyerAddress');
  }
  if (isBlank(g('BuyerLegalName')) && isBlank(g('BuyerFullName'))) errors.push('RequireError_BuyerFullName');
  if (g('TotalAmountOC') === undefined || g('TotalAmountOC') === null) errors.push('RequireError_TotalAmountOC');
  else if (!isNum(g('TotalAmountOC'))) errors.push('InvalidTotalAmountOC');
  const rawLines = g('OriginalInvoiceDetail');
  const lines: SandboxInvoiceLine[] = [];
  if (!Array.isArray(rawLines) || rawLines.length === 0) errors.push('RequireError_OriginalInvoiceDetail');
  else {
    const bad = new Set<string>();
    rawLines.forEach((raw, i) => {
      const lg = (k: string): unknown => getCI(raw, k);
      const type = lg('ItemType') ?? 1;
      if (!Number.isInteger(type) || (type as number) < 1 || (type as number) > 5) bad.add('ItemType');
      const note = type === 4;
      if (lg('LineNumber') !== undefined && !Number.isInteger(lg('LineNumber'))) bad.add('LineNumber');
      if (isBlank(lg('ItemName'))) bad.add('ItemName');
      if (!note) {
        for (const f of ['Quantity', 'UnitPrice', 'AmountOC']) if (lg(f) !== undefined && lg(f) !== null && !isNum(lg(f))) bad.add(f);
        if (isNum(lg('Quantity')) && (lg('Quantity') as number) < 0) bad.add('Quantity');
        const vat = s(lg('VATRateName'));
        if (!VAT_LABEL.test(vat)) bad.add('VATRateName');
      }
      lines.push({
        ItemType: Number.isInteger(type) ? (type as number) : 1,
        LineNumber: Number.isInteger(lg('LineNumber')) ? (lg('LineNumber') as number) : i + 1,
        ItemCode: s(lg('ItemCode')),
        ItemName: s(lg('ItemName')),
        UnitName: s(lg('UnitName')),
        Quantity: n(lg('Quantity')),
        UnitPrice: n(lg('UnitPrice')),
        DiscountRate: n(lg('DiscountRate')),
        DiscountAmountOC: n(lg('DiscountAmountOC')),
        AmountOC: n(lg('AmountOC')),
        AmountWithoutVATOC: isNum(lg('AmountWithoutVATOC')) ? n(lg('AmountWithoutVATOC')) : n(lg('AmountOC')),
        VATRateName: s(lg('VATRateName')),
      });
    });
    for (const f of bad) errors.push(`InvoiceDetail_${f}`);
  }
  const rates = g('TaxRateInfo');
  if (rates !== undefined && rates !== null) {
    if (!Array.isArray(rates) || rates.some((r) => !VAT_LABEL.test(s(getCI(r, 'VATRateName'))))) errors.push('TaxRateInfo_VATRateName');
  }
  if (errors.length) return { errors };
  const inv: SandboxInvoice = {
    RefID: s(g('RefID')),
    InvSeries: s(g('InvSeries')),
    InvoiceName: s(g('InvoiceName')) || 'Hóa đơn giá trị gia tăng',
    InvDate: s(g('InvDate')).slice(0, 10),
    CurrencyCode: s(g('CurrencyCode')),
    ExchangeRate: n(g('ExchangeRate')) || 1,
    PaymentMethodName: s(g('PaymentMethodName')),
    IsTicket: g('IsTicket') === true,
    BuyerLegalName: s(g('BuyerLegalName')),
    BuyerTaxCode: taxCode,
    BuyerAddress: s(g('BuyerAddress')),
    BuyerCode: s(g('BuyerCode')),
    BuyerPhoneNumber: s(g('BuyerPhoneNumber')),
    BuyerEmail: s(g('BuyerEmail')),
    BuyerFullName: s(g('BuyerFullName')),
    BuyerBankAccount: s(g('BuyerBankAccount')),
    BuyerBankName: s(g('BuyerBankName')),
    TotalAmountWithoutVATOC: n(g('TotalAmountWithoutVATOC')),
    TotalVATAmountOC: n(g('TotalVATAmountOC')),
    TotalDiscountAmountOC: n(g('TotalDiscountAmountOC')),
    TotalAmountOC: n(g('TotalAmountOC')),
    TotalAmountInWords: s(g('TotalAmountInWords')),
    OriginalInvoiceDetail: lines,
    TaxRateInfo: Array.isArray(rates)
      ? rates.map((r) => ({
          VATRateName: s(getCI(r, 'VATRateName')),
          AmountWithoutVATOC: n(getCI(r, 'AmountWithoutVATOC')),
          VATAmountOC: n(getCI(r, 'VATAmountOC')),
        }))
      : [],
  };
  return { errors, invoice: inv };
}

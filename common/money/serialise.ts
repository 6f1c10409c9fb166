/**
 * The edge between the editable draft (decimal strings) and InvoiceData (JSON numbers).
 *
 * serialiseDraft: computes the draft and writes InvoiceData with every derived amount filled.
 *   Lines carry the documented fields plus `VATAmountOC` (the line's VAT, as issuing lists it in
 *   docs/service.md#issuing-and-the-issued-invoice-list); note lines (ItemType 4) carry zeros and no VAT label.
 * draftFromInvoiceData: the reverse, for invoices read back from storage, the sandbox or a
 *   file. A TaxRateInfo VAT amount that differs from the formula becomes a hand override, so
 *   draftFromInvoiceData ∘ serialiseDraft is the identity on drafts (up to canonical decimal
 *   strings) and serialiseDraft ∘ draftFromInvoiceData ∘ serialiseDraft = serialiseDraft.
 */
import { Dec, readDecimal, toDecimalString, toWireNumber } from './decimal';
import { computeInvoice, roundingRuleFor, type ComputeOptions, type ComputedInvoice } from './compute';
import { discountFromRate, amountOC, allowsLineDiscount } from './formulas';
import { normaliseVatLabel } from './vat';
import { DECREE70_FIELDS, DRAFT_HEADER_FIELDS, DRAFT_TEXT_FIELDS, type DraftLine, type InvoiceDraft } from './draft';
import type { InvoiceData, InvoiceLine, ItemType } from '../model/invoice';
import type { CorrectionFields } from '../model/correction';

const CORRECTION_FIELDS = ['ReferenceType', 'OrgInvoiceType', 'OrgInvTemplateNo', 'OrgInvSeries', 'OrgInvNo', 'OrgInvDate', 'InvoiceNote'] as const;

const LINE_KNOWN = new Set([
  'ItemType',
  'LineNumber',
  'ItemCode',
  'ItemName',
  'UnitName',
  'Quantity',
  'UnitPrice',
  'DiscountRate',
  'DiscountAmountOC',
  'AmountOC',
  'AmountWithoutVATOC',
  'VATAmountOC',
  'VATRateName',
]);
const INVOICE_KNOWN = new Set<string>([
  ...DRAFT_HEADER_FIELDS,
  'TotalAmountWithoutVATOC',
  'TotalVATAmountOC',
  'TotalDiscountAmountOC',
  'TotalAmountOC',
  'TotalAmountInWords',
  'OriginalInvoiceDetail',
  'TaxRateInfo',
]);

export function serialiseDraft(draft: InvoiceDraft, options: ComputeOptions = {}, computed?: ComputedInvoice): InvoiceData {
  const c = computed ?? computeInvoice(draft, options);
  const detail: InvoiceLine[] = c.lines.map((l, i) => {
    const src = draft.lines[i]!;
    const note = l.ItemType === 4;
    const line: InvoiceLine = {
      ...(src.extra ?? {}),
      ItemType: src.ItemType,
      LineNumber: l.LineNumber,
      ItemCode: src.ItemCode,
      ItemName: src.ItemName,
      UnitName: src.UnitName,
      Quantity: note ? 0 : toWireNumber(l.Quantity),
      UnitPrice: note ? 0 : toWireNumber(l.UnitPrice),
      DiscountRate: toWireNumber(l.DiscountRate),
      DiscountAmountOC: toWireNumber(l.DiscountAmountOC),
      AmountOC: toWireNumber(l.AmountOC),
      AmountWithoutVATOC: toWireNumber(l.AmountWithoutVATOC),
      VATAmountOC: toWireNumber(l.VATAmountOC),
    };
    if (!note) line.VATRateName = l.vat ? l.vat.label : src.VATRateName;
    return line;
  });
  const out: InvoiceData = {
    ...(draft.extra ?? {}),
    RefID: draft.RefID,
    InvSeries: draft.InvSeries.trim(),
    InvDate: draft.InvDate,
    CurrencyCode: c.currency,
    ExchangeRate: toWireNumber(c.exchangeRate),
    IsTicket: draft.IsTicket,
    TotalAmountWithoutVATOC: toWireNumber(c.totals.TotalAmountWithoutVATOC),
    TotalVATAmountOC: toWireNumber(c.totals.TotalVATAmountOC),
    TotalDiscountAmountOC: toWireNumber(c.totals.TotalDiscountAmountOC),
    TotalAmountOC: toWireNumber(c.totals.TotalAmountOC),
    TotalAmountInWords: c.words,
    OriginalInvoiceDetail: detail,
    TaxRateInfo: c.taxRates.map((r) => ({
      VATRateName: r.VATRateName,
      AmountWithoutVATOC: toWireNumber(r.AmountWithoutVATOC),
      VATAmountOC: toWireNumber(r.VATAmountOC),
    })),
  };
  // Text fields: sent only when filled (the service treats "" and absent alike; absent is cleaner).
  for (const f of DRAFT_TEXT_FIELDS) {
    const v = draft[f].trim();
    if (v !== '') out[f] = v;
  }
  for (const f of DECREE70_FIELDS) {
    const v = draft[f]?.trim() ?? '';
    if (v !== '') out[f] = f === 'BuyerIDNumber' ? v.replace(/\s+/g, '') : v;
  }
  if (draft.correction) Object.assign(out, draft.correction);
  return out;
}

/** The correction fields of InvoiceData when it is a replacement or an adjustment (ReferenceType 1/2). */
function correctionOf(data: Record<string, unknown>): CorrectionFields | undefined {
  const kind = Number(data.ReferenceType);
  if (kind !== 1 && kind !== 2) return undefined;
  return {
    ReferenceType: kind,
    OrgInvoiceType: Number(data.OrgInvoiceType ?? 1),
    OrgInvTemplateNo: text(data.OrgInvTemplateNo),
    OrgInvSeries: text(data.OrgInvSeries),
    OrgInvNo: text(data.OrgInvNo),
    OrgInvDate: text(data.OrgInvDate),
    InvoiceNote: text(data.InvoiceNote),
  };
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

function num(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const r = readDecimal(typeof v === 'number' ? v : String(v));
  return r.invalid ? String(v) : toDecimalString(r.value);
}

function pickExtra(o: Record<string, unknown>, known: Set<string>): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(o)) {
    if (known.has(k)) continue;
    (extra ??= {})[k] = v;
  }
  return extra;
}

/** Builds an editable draft from InvoiceData (already validated by InvoiceDataSchema). */
export function draftFromInvoiceData(data: InvoiceData, options: ComputeOptions = {}): InvoiceDraft {
  const rule = roundingRuleFor(data.CurrencyCode, options);
  const lines: DraftLine[] = data.OriginalInvoiceDetail.map((raw) => {
    const l = raw as InvoiceLine & Record<string, unknown>;
    const itemType = l.ItemType as ItemType;
    const quantity = num(l.Quantity);
    const unitPrice = num(l.UnitPrice);
    const rate = num(l.DiscountRate);
    const discount = num(l.DiscountAmountOC);
    // Which discount field was typed: the rate, when it reproduces the amount; else the amount.
    let discountBy: DraftLine['discountBy'] = 'rate';
    if (allowsLineDiscount(itemType)) {
      const a = amountOC(readDecimal(quantity).value, readDecimal(unitPrice).value, rule);
      const fromRate = discountFromRate(a, readDecimal(rate).value, rule);
      if (!fromRate.eq(readDecimal(discount).value)) discountBy = 'amount';
    }
    const line: DraftLine = {
      ItemType: itemType,
      ItemCode: text(l.ItemCode),
      ItemName: text(l.ItemName),
      UnitName: text(l.UnitName),
      Quantity: itemType === 4 && quantity === '0' ? '' : quantity,
      UnitPrice: itemType === 4 && unitPrice === '0' ? '' : unitPrice,
      DiscountRate: allowsLineDiscount(itemType) && rate !== '0' ? rate : '',
      DiscountAmountOC: allowsLineDiscount(itemType) && discount !== '0' ? discount : '',
      discountBy,
      VATRateName: text(l.VATRateName),
    };
    const extra = pickExtra(l, LINE_KNOWN);
    if (extra) line.extra = extra;
    return line;
  });

  const draft: InvoiceDraft = {
    RefID: data.RefID,
    InvSeries: data.InvSeries,
    InvoiceName: text(data.InvoiceName),
    InvDate: data.InvDate,
    CurrencyCode: data.CurrencyCode,
    ExchangeRate: num(data.ExchangeRate) || '1',
    PaymentMethodName: text(data.PaymentMethodName),
    IsTicket: data.IsTicket === true,
    BuyerLegalName: text(data.BuyerLegalName),
    BuyerTaxCode: text(data.BuyerTaxCode),
    BuyerAddress: text(data.BuyerAddress),
    BuyerCode: text(data.BuyerCode),
    BuyerPhoneNumber: text(data.BuyerPhoneNumber),
    BuyerEmail: text(data.BuyerEmail),
    BuyerFullName: text(data.BuyerFullName),
    BuyerBankAccount: text(data.BuyerBankAccount),
    BuyerBankName: text(data.BuyerBankName),
    lines,
    vatOverrides: {},
  };
  for (const f of DECREE70_FIELDS) {
    const v = text((data as Record<string, unknown>)[f]);
    if (v !== '') draft[f] = v;
  }
  const correction = correctionOf(data as Record<string, unknown>);
  if (correction) draft.correction = correction;
  const extra = pickExtra(data as Record<string, unknown>, correction ? new Set([...INVOICE_KNOWN, ...CORRECTION_FIELDS]) : INVOICE_KNOWN);
  if (extra) draft.extra = extra;

  // Hand-typed VAT: a row whose amount differs from what the formula gives.
  const computed = computeInvoice(draft, options);
  for (const row of data.TaxRateInfo) {
    const key = normaliseVatLabel(row.VATRateName) ?? row.VATRateName.trim();
    const c = computed.taxRates.find((r) => r.VATRateName === key);
    const given = new Dec(row.VATAmountOC);
    if (!c || !c.computedVATAmountOC.eq(given)) draft.vatOverrides[key] = toDecimalString(given);
  }
  return draft;
}

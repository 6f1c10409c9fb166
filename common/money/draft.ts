/**
 * The editable draft of an invoice, as the renderer holds it while a cashier types: every
 * money/quantity value is a decimal STRING (possibly blank or half-typed). Numbers exist only
 * at the edge, in the InvoiceData produced by `serialiseDraft` (serialise.ts).
 */
import type { InvoiceBuyerText, ItemType } from '../model/invoice';
import type { CorrectionFields } from '../model/correction';

type DiscountBy = 'rate' | 'amount';

export interface DraftLine {
  /** 1 goods, 2 promotion, 3 trade discount, 4 note, 5 special goods. */
  ItemType: ItemType;
  ItemCode: string;
  ItemName: string;
  UnitName: string;
  Quantity: string;
  UnitPrice: string;
  /** Percent, e.g. `"5"` for 5 %. Derived when `discountBy` is `amount`. */
  DiscountRate: string;
  /** Derived when `discountBy` is `rate`. */
  DiscountAmountOC: string;
  /** Which of the two discount fields the cashier typed; the other one is derived. */
  discountBy: DiscountBy;
  /** `0%`, `5%`, `8%`, `10%`, `KCT`, `KKKNT`, `KHAC:x%` (blank for notes). */
  VATRateName: string;
  /** Fields of the line this app does not know, carried through unchanged. */
  extra?: Record<string, unknown>;
}

export interface InvoiceDraft extends InvoiceBuyerText {
  RefID: string;
  InvSeries: string;
  InvoiceName: string;
  /** `YYYY-MM-DD`, a calendar date in Vietnam. */
  InvDate: string;
  CurrencyCode: string;
  /** Decimal string; `1` for VND. */
  ExchangeRate: string;
  PaymentMethodName: string;
  IsTicket: boolean;
  lines: DraftLine[];
  /**
   * VAT amounts typed by hand, per TaxRateInfo row, keyed by the normalised VATRateName
   * (`10%`, `KHAC:3.5%`). A row with an override stays marked `edited` until the key is removed.
   */
  vatOverrides: Record<string, string>;
  /** Fields of InvoiceData this app does not know, carried through unchanged. */
  extra?: Record<string, unknown>;
  /** Decree 70 buyer identity (12-digit personal ID, passport, 7-character budget-unit code). */
  BuyerIDNumber?: string;
  BuyerPassport?: string;
  BuyerBudgetCode?: string;
  /** The outlet of a shop with several (Decree 70). */
  SellerShopCode?: string;
  SellerShopName?: string;
  /** Set on a replacement or adjustment draft, built by code from the issued original (model/correction.ts). */
  correction?: CorrectionFields;
}

/** Optional text fields of the draft, sent only when filled. */
export const DECREE70_FIELDS = ['BuyerIDNumber', 'BuyerPassport', 'BuyerBudgetCode', 'SellerShopCode', 'SellerShopName'] as const;

export const DRAFT_TEXT_FIELDS = [
  'InvoiceName',
  'PaymentMethodName',
  'BuyerLegalName',
  'BuyerTaxCode',
  'BuyerAddress',
  'BuyerCode',
  'BuyerPhoneNumber',
  'BuyerEmail',
  'BuyerFullName',
  'BuyerBankAccount',
  'BuyerBankName',
] as const;

/** The invoice-level fields a draft carries (not its totals or lines), as the service names them. */
export const DRAFT_HEADER_FIELDS = [
  'RefID',
  'InvSeries',
  'InvDate',
  'CurrencyCode',
  'ExchangeRate',
  'IsTicket',
  ...DRAFT_TEXT_FIELDS,
  ...DECREE70_FIELDS,
] as const;

export function emptyLine(itemType: ItemType = 1): DraftLine {
  return {
    ItemType: itemType,
    ItemCode: '',
    ItemName: '',
    UnitName: '',
    Quantity: itemType === 4 ? '' : '1',
    UnitPrice: '',
    DiscountRate: '',
    DiscountAmountOC: '',
    discountBy: 'rate',
    VATRateName: itemType === 4 ? '' : '10%',
  };
}

export function emptyDraft(init: Partial<InvoiceDraft> & Pick<InvoiceDraft, 'RefID' | 'InvDate'>): InvoiceDraft {
  return {
    InvSeries: '',
    InvoiceName: '',
    CurrencyCode: 'VND',
    ExchangeRate: '1',
    PaymentMethodName: '',
    IsTicket: false,
    BuyerLegalName: '',
    BuyerTaxCode: '',
    BuyerAddress: '',
    BuyerCode: '',
    BuyerPhoneNumber: '',
    BuyerEmail: '',
    BuyerFullName: '',
    BuyerBankAccount: '',
    BuyerBankName: '',
    lines: [],
    vatOverrides: {},
    ...init,
  };
}

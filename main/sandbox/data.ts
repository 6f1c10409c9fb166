import Decimal from 'decimal.js';
import { createRng, hash32, lookupCode, pick, randInt, uuid, type Rng } from './prng';
import { amountInWords } from './words';
import {
  BANKS,
  COMPANY_BRANDS,
  COMPANY_FORMS,
  COMPANY_TRADES,
  EMAIL_HOSTS,
  GIVEN,
  GOODS,
  MIDDLES,
  PAYMENT_METHODS,
  PLACES,
  STREETS,
  SURNAMES,
} from './sample-words';
import type { InvoiceBuyerText } from '../../common/model/invoice';
import type { InvoiceKind } from '../../common/model/kind';

/** One line of OriginalInvoiceDetail (docs/service.md#invoicedata). */
export interface SandboxInvoiceLine {
  ItemType: number;
  LineNumber: number;
  ItemCode: string;
  ItemName: string;
  UnitName: string;
  Quantity: number;
  UnitPrice: number;
  DiscountRate: number;
  DiscountAmountOC: number;
  AmountOC: number;
  AmountWithoutVATOC: number;
  VATRateName: string;
}

interface SandboxTaxRateInfo {
  VATRateName: string;
  AmountWithoutVATOC: number;
  VATAmountOC: number;
}

/** An InvoiceData (docs/service.md#invoicedata) as the sandbox holds it; issued ones also carry number + code. */
export interface SandboxInvoice extends InvoiceBuyerText {
  RefID: string;
  InvSeries: string;
  InvoiceName: string;
  InvDate: string;
  CurrencyCode: string;
  ExchangeRate: number;
  PaymentMethodName: string;
  IsTicket: boolean;
  TotalAmountWithoutVATOC: number;
  TotalVATAmountOC: number;
  TotalDiscountAmountOC: number;
  TotalAmountOC: number;
  TotalAmountInWords: string;
  OriginalInvoiceDetail: SandboxInvoiceLine[];
  TaxRateInfo: SandboxTaxRateInfo[];
  /** Issued invoices only. */
  TransactionID?: string;
  InvNo?: string;
  kind?: InvoiceKind;
  deleted?: boolean;
}

export const SANDBOX_SELLER = {
  name: 'Công ty TNHH Cửa hàng Thử nghiệm Hóa đơn Điện tử',
  taxCode: '0109876543',
  address: 'Số 18 phố Lý Thường Kiệt, Phường Cửa Nam, Hà Nội',
  phone: '024 3825 6789',
  bankAccount: '0011004123456',
  bankName: 'Ngân hàng TMCP Ngoại thương Việt Nam – Chi nhánh Hà Nội',
} as const;

export { buildTemplates, type SandboxTemplate, type TemplateEntry } from './template-catalogue';

// ---------------------------------------------------------------------------------------------
// Catalogue of issued invoices

export interface Catalogue {
  /** Live (not deleted) issued invoices of one kind, in issue order. */
  list(kind: InvoiceKind): readonly string[];
  /** Invoices that exist but were deleted (Download answers InvoiceDeleted). */
  deletedIds(kind: InvoiceKind): readonly string[];
  get(transactionId: string): SandboxInvoice | undefined;
  kindOf(transactionId: string): InvoiceKind | undefined;
  /** Records an invoice issued through the API; it must carry TransactionID, InvNo and kind. */
  add(inv: SandboxInvoice & { TransactionID: string; InvNo: string; kind: InvoiceKind }): void;
  /** The highest number of a series and that invoice's date (undefined: none issued yet). */
  seriesTail(series: string): { invNo: number; date: string } | undefined;
  /** TransactionID of the invoice with this RefID; generated invoices are indexed on first use. */
  byRefId(refId: string): string | undefined;
  readonly size: number;
}

/** The tax authority's code of a coded invoice as the sandbox makes it up (the XML's MCCQT); null without code. */
export function taxAuthorityCode(inv: Pick<SandboxInvoice, 'kind' | 'InvSeries' | 'TransactionID'>): string | null {
  if (inv.kind === 'withoutCode' || !inv.TransactionID) return null;
  return `M1-${inv.InvSeries.slice(2, 4)}-SBX00-${inv.TransactionID}`;
}

function money(value: Decimal, currency: string): Decimal {
  return value.toDecimalPlaces(currency === 'VND' ? 0 : 2, Decimal.ROUND_HALF_UP);
}

function rateOf(label: string): Decimal {
  const m = /^(?:KHAC:?)?(\d+(?:[.,]\d+)?)%$/.exec(label);
  return m?.[1] ? new Decimal(m[1].replace(',', '.')).div(100) : new Decimal(0);
}

/** Fills the line amounts, the tax-rate summary and the totals of an invoice (decimal maths). */
export function computeTotals(inv: SandboxInvoice): void {
  const cur = inv.CurrencyCode;
  const byRate = new Map<string, { base: Decimal; vat: Decimal }>();
  let totalBase = new Decimal(0);
  let totalVat = new Decimal(0);
  let totalDiscount = new Decimal(0);
  for (const line of inv.OriginalInvoiceDetail) {
    if (line.ItemType === 4) continue;
    const gross = line.ItemType === 2 ? new Decimal(0) : money(new Decimal(line.Quantity).times(line.UnitPrice), cur);
    const discount = money(gross.times(line.DiscountRate).div(100), cur);
    const base = gross.minus(discount);
    line.AmountOC = gross.toNumber();
    line.DiscountAmountOC = discount.toNumber();
    line.AmountWithoutVATOC = base.toNumber();
    const signed = line.ItemType === 3 ? base.negated() : base;
    const vat = money(signed.times(rateOf(line.VATRateName)), cur);
    const slot = byRate.get(line.VATRateName) ?? { base: new Decimal(0), vat: new Decimal(0) };
    slot.base = slot.base.plus(signed);
    slot.vat = slot.vat.plus(vat);
    byRate.set(line.VATRateName, slot);
    totalBase = totalBase.plus(signed);
    totalVat = totalVat.plus(vat);
    totalDiscount = totalDiscount.plus(discount);
  }
  inv.TaxRateInfo = [...byRate.entries()].map(([VATRateName, s]) => ({
    VATRateName,
    AmountWithoutVATOC: s.base.toNumber(),
    VATAmountOC: s.vat.toNumber(),
  }));
  inv.TotalAmountWithoutVATOC = totalBase.toNumber();
  inv.TotalVATAmountOC = totalVat.toNumber();
  inv.TotalDiscountAmountOC = totalDiscount.toNumber();
  const total = totalBase.plus(totalVat);
  inv.TotalAmountOC = total.toNumber();
  inv.TotalAmountInWords = amountInWords(total, cur);
}

function personName(rng: Rng): string {
  return `${pick(rng, SURNAMES)} ${pick(rng, MIDDLES)} ${pick(rng, GIVEN)}`;
}

function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D');
}

function makeInvoice(rng: Rng, kind: InvoiceKind, series: string, date: string, currentYear: number, brief = false): SandboxInvoice {
  const company = kind !== 'cashRegister' && rng() < 0.6;
  const person = personName(rng);
  const [ward, province] = pick(rng, PLACES);
  const address = `Số ${randInt(rng, 1, 350)} ${pick(rng, STREETS)}, ${ward}, ${province}`;
  const legal = company ? `${pick(rng, COMPANY_FORMS)} ${pick(rng, COMPANY_TRADES)} ${pick(rng, COMPANY_BRANDS)}` : '';
  const taxCode = company ? `0${randInt(rng, 100_000_000, 999_999_999)}${rng() < 0.15 ? `-00${randInt(rng, 1, 9)}` : ''}` : '';
  const given = ascii(person).toLowerCase().split(' ');
  const email = rng() < 0.8 ? `${given[2] ?? 'khach'}.${given[0] ?? 'hang'}${randInt(rng, 1, 99)}@${pick(rng, EMAIL_HOSTS)}` : '';
  const usd = kind === 'withCode' && rng() < 0.03;
  const currency = usd ? 'USD' : 'VND';
  const lineCount = brief ? 1 : kind === 'cashRegister' ? randInt(rng, 1, 4) : randInt(rng, 1, 8);
  const lines: SandboxInvoiceLine[] = [];
  for (let i = 0; i < lineCount; i++) {
    const [name, unit, price, vat] = pick(rng, GOODS);
    const unitPrice = usd ? new Decimal(price).div(25_400).toDecimalPlaces(2).toNumber() : price;
    lines.push({
      ItemType: 1,
      LineNumber: lines.length + 1,
      ItemCode: `SP${String(hash32(name) % 100_000).padStart(5, '0')}`,
      ItemName: name,
      UnitName: unit,
      Quantity: randInt(rng, 1, 12),
      UnitPrice: unitPrice,
      DiscountRate: rng() < 0.15 ? pick(rng, [2, 5, 10]) : 0,
      DiscountAmountOC: 0,
      AmountOC: 0,
      AmountWithoutVATOC: 0,
      VATRateName: vat,
    });
  }
  const first = lines[0];
  if (first && !brief && rng() < 0.1) {
    lines.push({
      ...first,
      ItemType: 2,
      LineNumber: lines.length + 1,
      ItemName: `${first.ItemName} (hàng khuyến mại không thu tiền)`,
      Quantity: 1,
      UnitPrice: 0,
      DiscountRate: 0,
    });
  }
  if (first && !brief && rng() < 0.06) {
    lines.push({
      ...first,
      ItemType: 3,
      LineNumber: lines.length + 1,
      ItemName: 'Chiết khấu thương mại theo chương trình tri ân khách hàng',
      Quantity: 1,
      UnitPrice: Math.max(1, Math.floor(first.UnitPrice / 10)),
      DiscountRate: 0,
    });
  }
  if (!brief && rng() < 0.08) {
    lines.push({
      ItemType: 4,
      LineNumber: lines.length + 1,
      ItemCode: '',
      ItemName: 'Ghi chú: hàng đã bao gồm phí đóng gói',
      UnitName: '',
      Quantity: 0,
      UnitPrice: 0,
      DiscountRate: 0,
      DiscountAmountOC: 0,
      AmountOC: 0,
      AmountWithoutVATOC: 0,
      VATRateName: '',
    });
  }
  const inv: SandboxInvoice = {
    RefID: uuid(rng),
    InvSeries: series,
    InvoiceName: series.startsWith('2') ? 'Hóa đơn bán hàng' : 'Hóa đơn giá trị gia tăng',
    InvDate: date,
    CurrencyCode: currency,
    ExchangeRate: usd ? 25_400 : 1,
    PaymentMethodName: pick(rng, PAYMENT_METHODS),
    IsTicket: false,
    BuyerLegalName: legal,
    BuyerTaxCode: taxCode,
    BuyerAddress: company || rng() < 0.5 ? address : '',
    BuyerCode: company ? `KH${String(randInt(rng, 1, 99_999)).padStart(5, '0')}` : '',
    BuyerPhoneNumber: rng() < 0.7 ? `09${randInt(rng, 10_000_000, 99_999_999)}` : '',
    BuyerEmail: email,
    BuyerFullName: person,
    BuyerBankAccount: company && rng() < 0.5 ? String(randInt(rng, 100_000_000, 999_999_999)) + String(randInt(rng, 100, 999)) : '',
    BuyerBankName: company && rng() < 0.5 ? pick(rng, BANKS) : '',
    TotalAmountWithoutVATOC: 0,
    TotalVATAmountOC: 0,
    TotalDiscountAmountOC: 0,
    TotalAmountOC: 0,
    TotalAmountInWords: '',
    OriginalInvoiceDetail: lines,
    TaxRateInfo: [],
    kind,
  };
  void currentYear;
  computeTotals(inv);
  return inv;
}

/** Vietnam calendar date (UTC+7) of an instant. */
export function vietnamDate(at: Date): { year: number; month: number; day: number } {
  const shifted = new Date(at.getTime() + 7 * 3600_000);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/**
 * Builds the catalogue. Kinds are split 60 % with code, 25 % without code, 15 % cash register;
 * about 1 % of generated invoices are deleted. Dates run from 1 January of the current year
 * (UTC+7) to the first day of the current month, numbers increase with the date per series.
 */
/** Generated invoices kept for reuse (the oldest is dropped first). */
const BUILT_KEPT = 20_000;

/**
 * `brief`: every invoice has one line (a short XML, generated in a fraction of the time), for
 * benchmarks that download a hundred thousand of them.
 */
export function buildCatalogue(seed: number, invoiceCount: number, now: Date, brief = false): Catalogue {
  const { year, month } = vietnamDate(now);
  const yy = String(year % 100).padStart(2, '0');
  const rng = createRng(`catalogue:${seed}`);
  const startMs = Date.UTC(year, 0, 1);
  const endMs = Date.UTC(year, month - 1, 1);
  const span = Math.max(0, Math.round((endMs - startMs) / 86_400_000));
  const seriesFor = (kind: InvoiceKind, r: Rng): string => {
    if (kind === 'cashRegister') return `1C${yy}MAA`;
    if (kind === 'withoutCode') return `1K${yy}TAA`;
    return r() < 0.15 ? `2C${yy}TBB` : `1C${yy}TAA`;
  };
  // Cheap skeletons first (kind, date, series, code, number); the content of each invoice is
  // generated on first access from its own PRNG stream, so start-up stays fast at any size.
  type Skeleton = { index: number; kind: InvoiceKind; day: number; date: string; series: string; code: string; deleted: boolean; invNo: string };
  const skeletons: Skeleton[] = [];
  const used = new Set<string>();
  for (let i = 0; i < invoiceCount; i++) {
    const r = rng();
    const kind: InvoiceKind = r < 0.6 ? 'withCode' : r < 0.85 ? 'withoutCode' : 'cashRegister';
    const day = randInt(rng, 0, span);
    const date = new Date(startMs + day * 86_400_000).toISOString().slice(0, 10);
    const series = seriesFor(kind, rng);
    let code = lookupCode(rng);
    while (used.has(code)) code = lookupCode(rng);
    used.add(code);
    skeletons.push({ index: i, kind, day, date, series, code, deleted: rng() < 0.01, invNo: '' });
  }
  // Numbers increase with the date inside each series.
  const bySeries = new Map<string, Skeleton[]>();
  for (const sk of skeletons) {
    const list = bySeries.get(sk.series) ?? [];
    list.push(sk);
    bySeries.set(sk.series, list);
  }
  const tails = new Map<string, { invNo: number; date: string }>();
  for (const [series, list] of bySeries) {
    const sorted = [...list].sort((a, b) => a.day - b.day || a.index - b.index);
    sorted.forEach((sk, i) => {
      sk.invNo = String(i + 1).padStart(8, '0');
    });
    const last = sorted.at(-1);
    if (last) tails.set(series, { invNo: sorted.length, date: last.date });
  }
  // RefIDs come from their own stream, so every one is known without generating the invoice.
  const refIdOf = (index: number): string => uuid(createRng(`refid:${seed}:${index}`));
  const skById = new Map<string, Skeleton>();
  const built = new Map<string, SandboxInvoice>();
  const lists: Record<InvoiceKind, string[]> = { withCode: [], withoutCode: [], cashRegister: [] };
  const deleted: Record<InvoiceKind, string[]> = { withCode: [], withoutCode: [], cashRegister: [] };
  for (const sk of skeletons) {
    skById.set(sk.code, sk);
    (sk.deleted ? deleted : lists)[sk.kind].push(sk.code);
  }
  const get = (id: string): SandboxInvoice | undefined => {
    let inv = built.get(id);
    if (inv) return inv;
    const sk = skById.get(id);
    if (!sk) return undefined;
    inv = makeInvoice(createRng(`invoice:${seed}:${sk.index}`), sk.kind, sk.series, sk.date, year, brief);
    inv.RefID = refIdOf(sk.index);
    inv.TransactionID = sk.code;
    inv.InvNo = sk.invNo;
    if (sk.deleted) inv.deleted = true;
    // Bounded: an invoice is rebuilt the same from its own stream, so a catalogue of any size keeps a few MB.
    if (built.size >= BUILT_KEPT) built.delete(built.keys().next().value!);
    built.set(id, inv);
    return inv;
  };
  const added = new Map<string, SandboxInvoice & { kind: InvoiceKind }>();
  let refIndex: Map<string, string> | undefined;
  const indexRefs = (): Map<string, string> => {
    if (!refIndex) {
      refIndex = new Map(skeletons.map((sk) => [refIdOf(sk.index), sk.code]));
      for (const [id, inv] of added) refIndex.set(inv.RefID, id);
    }
    return refIndex;
  };
  return {
    list: (kind) => lists[kind],
    deletedIds: (kind) => deleted[kind],
    get: (id) => added.get(id) ?? get(id),
    kindOf: (id) => added.get(id)?.kind ?? skById.get(id)?.kind,
    add: (inv) => {
      if (added.has(inv.TransactionID) || skById.has(inv.TransactionID)) throw new Error(`TransactionID ${inv.TransactionID} exists`);
      added.set(inv.TransactionID, inv);
      lists[inv.kind].push(inv.TransactionID);
      refIndex?.set(inv.RefID, inv.TransactionID);
      const no = Number(inv.InvNo);
      const tail = tails.get(inv.InvSeries);
      if (!tail || no > tail.invNo) tails.set(inv.InvSeries, { invNo: no, date: inv.InvDate });
    },
    seriesTail: (series) => {
      const tail = tails.get(series);
      return tail ? { ...tail } : undefined;
    },
    byRefId: (refId) => indexRefs().get(refId),
    get size() {
      return skById.size + added.size;
    },
  };
}

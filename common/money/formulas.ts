/**
 * EVERY money formula of an invoice, in one place. Nothing else in the app multiplies,
 * divides, rounds or sums invoice money: the draft screen, the preview request, the sandbox
 * and the tests all come through here.
 *
 * Sources:
 *  [SERVICE] docs/service.md#invoicedata (fields of InvoiceData, its lines and TaxRateInfo)
 *  [RULES]   docs/invoice-rules.md — #line-kinds--itemtype, #vat-labels, #amounts-and-rounding (ItemType
 *            meanings, VAT labels, rounding per currency, "round each line, then sum", decimal
 *            arithmetic only, AmountOC = Quantity × UnitPrice, discount from DiscountRate or typed
 *            amount with the other derived, AmountWithoutVATOC = AmountOC − DiscountAmountOC,
 *            TaxRateInfo one row per rate, the invariants)
 *  [ISSUING] docs/service.md#issuing-and-the-issued-invoice-list ("Issue": converted totals = the
 *            OC value × ExchangeRate, per-line Amount/DiscountAmount/AmountWithoutVAT/VATAmount,
 *            OptionUserDefined decimal digits per kind of number) and
 *            docs/invoice-rules.md#the-issuing-form (how this app rounds and sums them)
 */
import { Dec, HUNDRED, ROUNDING, ZERO, type Decimal, type RoundingMode } from './decimal';
import { ItemType } from '../model/invoice';

export interface RoundingRule {
  /** Decimals of the invoice currency (VND 0, others 2 by default: see currency.ts). */
  decimals: number;
  mode: RoundingMode;
  /** Decimals kept for a DiscountRate derived from a typed discount amount. */
  rateDecimals: number;
}

/** Rounds a money amount to the currency's decimals. [RULES] "VND … round to whole đồng; other currencies 2 decimals". */
function roundMoney(value: Decimal, rule: RoundingRule): Decimal {
  return value.toDecimalPlaces(rule.decimals, ROUNDING[rule.mode]);
}

/**
 * How a line of each ItemType takes part in the invoice totals. [RULES] ItemType:
 * 1 goods/service and 5 special goods count normally (+1); 2 promotion is free (0: its amounts
 * are zero); 3 trade discount subtracts from the totals (−1: its amounts are written positive on
 * the line and subtracted in sums); 4 note line carries no amounts (0).
 */
export function lineSign(itemType: number): 1 | 0 | -1 {
  switch (itemType) {
    case ItemType.Goods:
    case ItemType.SpecialGoods:
      return 1;
    case ItemType.TradeDiscount:
      return -1;
    default:
      return 0;
  }
}

/** Whether a line of this ItemType carries amounts at all (not a promotion or a note). [RULES] ItemType. */
export function carriesAmounts(itemType: number): boolean {
  return lineSign(itemType) !== 0;
}

/** Whether a line of this ItemType may carry its own discount (only kinds 1 and 5 may). [RULES] ItemType. */
export function allowsLineDiscount(itemType: number): boolean {
  return lineSign(itemType) === 1;
}

/** AmountOC = round(Quantity × UnitPrice). [RULES] */
export function amountOC(quantity: Decimal, unitPrice: Decimal, rule: RoundingRule): Decimal {
  return roundMoney(quantity.times(unitPrice), rule);
}

/** DiscountAmountOC from a rate: round(AmountOC × DiscountRate / 100). [RULES] */
export function discountFromRate(amount: Decimal, ratePercent: Decimal, rule: RoundingRule): Decimal {
  return roundMoney(amount.times(ratePercent).dividedBy(HUNDRED), rule);
}

/** DiscountAmountOC typed by hand: rounded to the currency. [RULES] */
export function discountFromAmount(typed: Decimal, rule: RoundingRule): Decimal {
  return roundMoney(typed, rule);
}

/** DiscountRate derived from a typed amount: DiscountAmountOC / AmountOC × 100 (0 when AmountOC is 0). [RULES] */
export function rateFromDiscount(amount: Decimal, discount: Decimal, rule: RoundingRule): Decimal {
  if (amount.isZero()) return ZERO;
  return discount.times(HUNDRED).dividedBy(amount).toDecimalPlaces(rule.rateDecimals, ROUNDING[rule.mode]);
}

/** AmountWithoutVATOC = AmountOC − DiscountAmountOC (both already rounded, so exact). [RULES] */
export function amountWithoutVAT(amount: Decimal, discount: Decimal): Decimal {
  return amount.minus(discount);
}

/**
 * VAT of one line: round(AmountWithoutVATOC × rate / 100); KCT and KKKNT (rate null) carry none.
 * [RULES] "Round each line, then sum".
 */
export function lineVAT(amountWithoutVATOC: Decimal, ratePercent: Decimal | null, rule: RoundingRule): Decimal {
  if (ratePercent === null) return ZERO;
  return roundMoney(amountWithoutVATOC.times(ratePercent).dividedBy(HUNDRED), rule);
}

/** A line's signed contribution to a sum: sign × value (no rounding: values are already rounded). [RULES] "Round each line, then sum". */
export function signed(value: Decimal, sign: 1 | 0 | -1): Decimal {
  if (sign === 0) return ZERO;
  return sign === 1 ? value : value.negated();
}

/**
 * TaxRateInfo row for one rate [SERVICE, RULES "one row per rate"]:
 *   AmountWithoutVATOC = Σ signed line AmountWithoutVATOC of that rate,
 *   VATAmountOC        = Σ signed line VAT of that rate — or the amount typed by hand
 *                        (rounded to the currency), which then stays marked as edited.
 */
export function rowVAT(computed: Decimal, override: Decimal | null, rule: RoundingRule): Decimal {
  return override === null ? computed : roundMoney(override, rule);
}

/**
 * The four invoice totals [SERVICE]:
 *   TotalAmountWithoutVATOC = Σ rows AmountWithoutVATOC (= Σ signed line AmountWithoutVATOC)
 *   TotalVATAmountOC        = Σ rows VATAmountOC
 *   TotalDiscountAmountOC   = Σ line DiscountAmountOC of goods lines + Σ trade-discount line amounts
 *                             (so gross Σ AmountOC of goods − TotalDiscountAmountOC = TotalAmountWithoutVATOC)
 *   TotalAmountOC           = TotalAmountWithoutVATOC + TotalVATAmountOC
 * All terms are already rounded, so the sums are exact and the invariants hold to the last unit.
 */
export function totalAmount(withoutVAT: Decimal, vat: Decimal): Decimal {
  return withoutVAT.plus(vat);
}

/** Amount in VND for a foreign-currency amount: round(amountOC × ExchangeRate, 0). [RULES] "ExchangeRate to VND". */
export function toVND(amountOC: Decimal, exchangeRate: Decimal, mode: RoundingMode): Decimal {
  return amountOC.times(exchangeRate).toDecimalPlaces(0, ROUNDING[mode]);
}

export { Dec };

/**
 * A typed figure rounded to the digits the shop's settings give for its kind: Quantity to
 * QuantityDecimalDigits, UnitPrice to UnitPriceOCDecimalDigits, DiscountRate to
 * CoefficientDecimalDigits, ExchangeRate to ExchangRateDecimalDigits. [ISSUING] OptionUserDefined.
 */
export function roundToDigits(value: Decimal, digits: number, mode: RoundingMode): Decimal {
  return value.toDecimalPlaces(digits, ROUNDING[mode]);
}

/**
 * A converted amount: round(amountOC × ExchangeRate, AmountDecimalDigits). [ISSUING]
 * Lines: Amount, DiscountAmount, AmountWithoutVAT, VATAmount from the line's OC amounts.
 * Totals: TotalSaleAmount, TotalDiscountAmount, TotalAmountWithoutVAT, TotalVATAmount and
 * TotalAmount each from its own OC total (not from summed converted lines), as the
 * documentation defines them; so with a rate other than 1, Σ converted lines may differ from a
 * converted total by rounding (under one unit per line), and TotalAmount from
 * TotalAmountWithoutVAT + TotalVATAmount by at most one unit. With rate 1 and equal digits
 * every converted amount equals its OC amount.
 * TotalSaleAmountOC is Σ AmountOC of counted goods lines (ItemType 1 and 5) before discounts
 * (computeInvoice's `grossAmountOC`), so TotalSaleAmountOC − TotalDiscountAmountOC =
 * TotalAmountWithoutVATOC.
 */
export function convertAmount(amountOC: Decimal, exchangeRate: Decimal, digits: number, mode: RoundingMode): Decimal {
  return amountOC.times(exchangeRate).toDecimalPlaces(digits, ROUNDING[mode]);
}

/**
 * What changing a line's ItemType does to its fields, and what a new line starts with. The grid
 * only dispatches; these rules decide.
 */
import { ItemType } from '../model/invoice';
import { emptyLine, type DraftLine, type InvoiceDraft } from './draft';
import { allowsLineDiscount, carriesAmounts } from './formulas';

/** VAT rate a new goods line starts with when there is no line above to copy it from. */
export const DEFAULT_VAT_LABEL = '8%';

/** The line shows quantity, price and VAT (a promotion shows them too, at no charge; a note does not). */
export function showsAmounts(itemType: number): boolean {
  return itemType !== ItemType.Note && (carriesAmounts(itemType) || itemType === ItemType.Promotion);
}

/** The line may carry its own discount. */
export function showsDiscount(itemType: number): boolean {
  return allowsLineDiscount(itemType);
}

/** The line after its type changed: a note drops its amounts, a discount line its own discount. */
export function changeLineType(line: DraftLine, type: ItemType): DraftLine {
  const next: DraftLine = { ...line, ItemType: type };
  if (type === ItemType.Note) {
    next.Quantity = '';
    next.UnitPrice = '';
    next.DiscountRate = '';
    next.DiscountAmountOC = '';
    next.VATRateName = '';
  } else if (line.ItemType === ItemType.Note) {
    next.Quantity = next.Quantity || '1';
    next.VATRateName = next.VATRateName || DEFAULT_VAT_LABEL;
  }
  if (type === ItemType.TradeDiscount) {
    next.DiscountRate = '';
    next.DiscountAmountOC = '';
  }
  return next;
}

/** A new line of `type` below `previous`: it takes the VAT rate of the line above (most invoices have one rate). */
export function newLineAfter(previous: DraftLine | undefined, type: ItemType = ItemType.Goods): DraftLine {
  const line = emptyLine(type);
  if (type === ItemType.Note) return line;
  if (previous && previous.ItemType !== ItemType.Note && previous.VATRateName) line.VATRateName = previous.VATRateName;
  else line.VATRateName = DEFAULT_VAT_LABEL;
  return line;
}

/** What picking a catalogue item writes into a line: a note line keeps no VAT rate. */
export function withCatalogueItem(line: DraftLine, item: { code: string; name: string; unit: string; price: string; vatRate: string }): Partial<DraftLine> {
  return {
    ItemCode: item.code,
    ItemName: item.name,
    UnitName: item.unit,
    UnitPrice: item.price,
    ...(item.vatRate && line.ItemType !== ItemType.Note ? { VATRateName: item.vatRate } : {}),
  };
}

type BuyerFields = 'BuyerLegalName' | 'BuyerTaxCode' | 'BuyerAddress' | 'BuyerFullName' | 'BuyerEmail' | 'BuyerPhoneNumber' | 'BuyerCode';

/**
 * What picking a catalogue buyer writes into the draft: name, tax code and address always (they
 * belong together); contact, email, phone and code only when the catalogue knows them.
 */
export function buyerFieldsFrom(b: {
  legalName: string;
  taxCode: string;
  address: string;
  contact: string;
  email: string;
  phone: string;
  code: string;
}): Partial<Pick<InvoiceDraft, BuyerFields>> {
  return {
    BuyerLegalName: b.legalName,
    BuyerTaxCode: b.taxCode,
    BuyerAddress: b.address,
    ...(b.contact ? { BuyerFullName: b.contact } : {}),
    ...(b.email ? { BuyerEmail: b.email } : {}),
    ...(b.phone ? { BuyerPhoneNumber: b.phone } : {}),
    ...(b.code ? { BuyerCode: b.code } : {}),
  };
}

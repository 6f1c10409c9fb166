import type { TFunction } from 'i18next';
import type { MessageKey } from '../../i18n';

const FIELD_KEYS: Record<string, MessageKey> = {
  IsTicket: 'drafts.header.kind',
  InvSeries: 'drafts.header.series',
  InvDate: 'drafts.header.date',
  CurrencyCode: 'drafts.header.currency',
  ExchangeRate: 'drafts.header.exchangeRate',
  PaymentMethodName: 'drafts.header.payment',
  BuyerTaxCode: 'drafts.buyer.taxCode',
  BuyerLegalName: 'drafts.buyer.legalName',
  BuyerAddress: 'drafts.buyer.address',
  BuyerFullName: 'drafts.buyer.contact',
  BuyerEmail: 'drafts.buyer.email',
  BuyerPhoneNumber: 'drafts.buyer.phone',
  BuyerCode: 'drafts.buyer.code',
  words: 'drafts.totals.words',
  lines: 'drafts.grid.title',
};

const LINE_KEYS: Record<string, MessageKey> = {
  ItemType: 'drafts.grid.type',
  ItemCode: 'drafts.grid.code',
  ItemName: 'drafts.grid.name',
  UnitName: 'drafts.grid.unit',
  Quantity: 'drafts.grid.quantity',
  UnitPrice: 'drafts.grid.price',
  DiscountRate: 'drafts.grid.discountRate',
  DiscountAmountOC: 'drafts.grid.discountRate',
  VATRateName: 'drafts.grid.vat',
};

/** The label a cashier sees for a draft path (`InvSeries` → "Ký hiệu hóa đơn"), for messages. */
export function fieldLabel(path: string, t: TFunction): string {
  const line = /^lines\[(\d+)\]\.(\w+)$/.exec(path);
  if (line) {
    const key = LINE_KEYS[line[2]!];
    return key ? t('drafts.grid.cellLabel', { column: t(key), line: Number(line[1]) + 1 }) : path;
  }
  const key = FIELD_KEYS[path];
  return key ? t(key) : path;
}

/**
 * Required-field rules (docs/invoice-rules.md#required-fields): with a buyer tax code, BuyerLegalName and
 * BuyerAddress become required; a VAT invoice (a series with form digit 1) needs TaxRateInfo.
 */
import { problem, type Problem } from './problem';
import { parseSeries } from './series';
import type { InvoiceDraft } from '../money/draft';
import type { ComputedInvoice } from '../money/compute';

export function requiredFieldProblems(draft: InvoiceDraft, computed: ComputedInvoice): Problem[] {
  const out: Problem[] = [];
  const need = (field: keyof InvoiceDraft, en: string, vi: string, because?: { en: string; vi: string }) => {
    const v = draft[field];
    if (typeof v === 'string' && v.trim() !== '') return;
    out.push(
      problem([field], `required.${String(field)}`, {
        en: `${en} is required${because ? ` ${because.en}` : ''}.`,
        vi: `Cần nhập ${vi}${because ? ` ${because.vi}` : ''}.`,
      }),
    );
  };
  need('RefID', 'RefID', 'RefID');
  need('InvSeries', 'The invoice series', 'ký hiệu hóa đơn');
  need('InvDate', 'The invoice date', 'ngày hóa đơn');
  need('CurrencyCode', 'The currency', 'loại tiền');
  if (draft.BuyerTaxCode.trim() !== '') {
    const because = { en: 'when the buyer has a tax code', vi: 'khi người mua có mã số thuế' };
    need('BuyerLegalName', "The buyer's legal name", 'tên đơn vị mua hàng', because);
    need('BuyerAddress', "The buyer's address", 'địa chỉ người mua', because);
  }
  const series = parseSeries(draft.InvSeries);
  if (series.ok && series.formDigit === 1 && computed.taxRates.length === 0) {
    out.push(
      problem(['TaxRateInfo'], 'required.TaxRateInfo', {
        en: 'A VAT invoice needs at least one line with a VAT rate (TaxRateInfo is empty).',
        vi: 'Hóa đơn GTGT cần ít nhất một dòng có thuế suất (bảng tổng hợp thuế suất đang trống).',
      }),
    );
  }
  return out;
}

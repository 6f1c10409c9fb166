// The text documents (XML and HTML) and the number, date and text helpers the PDF shares.
import Decimal from 'decimal.js';
import { SANDBOX_SELLER, type SandboxInvoice } from './data';

// ---------------------------------------------------------------------------------------------
// Text helpers

export function formatAmount(value: number | string, currency = 'VND'): string {
  const d = new Decimal(value);
  const fixed = d.abs().toFixed(currency === 'VND' ? 0 : 2);
  const [int = '0', frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${d.isNegative() ? '-' : ''}${grouped}${frac ? `,${frac}` : ''}`;
}

export function formatQty(value: number): string {
  return new Decimal(value).toString().replace('.', ',');
}

export function dateParts(iso: string): { d: string; m: string; y: string } {
  const [y = '', m = '', d = ''] = iso.split('-');
  return { d, m, y };
}

function escapeXml(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : Number(v ?? 0) || 0;
}

// ---------------------------------------------------------------------------------------------
// XML (a TT78-like layout) and HTML

export function renderXml(inv: SandboxInvoice): string {
  const lines = inv.OriginalInvoiceDetail.map(
    (l) =>
      `      <HHDVu><TChat>${l.ItemType}</TChat><STT>${l.LineNumber}</STT><MHHDVu>${escapeXml(l.ItemCode)}</MHHDVu><THHDVu>${escapeXml(l.ItemName)}</THHDVu><DVTinh>${escapeXml(l.UnitName)}</DVTinh><SLuong>${l.Quantity}</SLuong><DGia>${l.UnitPrice}</DGia><TLCKhau>${l.DiscountRate}</TLCKhau><STCKhau>${l.DiscountAmountOC}</STCKhau><ThTien>${l.AmountWithoutVATOC}</ThTien><TSuat>${escapeXml(l.VATRateName)}</TSuat></HHDVu>`,
  ).join('\n');
  const rates = inv.TaxRateInfo.map(
    (t) => `        <LTSuat><TSuat>${escapeXml(t.VATRateName)}</TSuat><ThTien>${t.AmountWithoutVATOC}</ThTien><TThue>${t.VATAmountOC}</TThue></LTSuat>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<HDon>
  <DLHDon Id="data">
    <TTChung>
      <PBan>2.1.0</PBan>
      <THDon>${escapeXml(inv.InvoiceName)}</THDon>
      <KHMSHDon>${escapeXml(inv.InvSeries.slice(0, 1))}</KHMSHDon>
      <KHHDon>${escapeXml(inv.InvSeries.slice(1))}</KHHDon>
      <SHDon>${escapeXml(inv.InvNo ?? '')}</SHDon>
      <NLap>${escapeXml(inv.InvDate)}</NLap>
      <DVTTe>${escapeXml(inv.CurrencyCode)}</DVTTe>
      <TGia>${inv.ExchangeRate}</TGia>
      <HTTToan>${escapeXml(inv.PaymentMethodName)}</HTTToan>
      <MTCuu>${escapeXml(inv.TransactionID ?? '')}</MTCuu>
      <RefID>${escapeXml(inv.RefID)}</RefID>
    </TTChung>
    <NDHDon>
      <NBan>
        <Ten>${escapeXml(SANDBOX_SELLER.name)}</Ten>
        <MST>${SANDBOX_SELLER.taxCode}</MST>
        <DChi>${escapeXml(SANDBOX_SELLER.address)}</DChi>
        <SDThoai>${escapeXml(SANDBOX_SELLER.phone)}</SDThoai>
        <STKNHang>${SANDBOX_SELLER.bankAccount}</STKNHang>
        <TNHang>${escapeXml(SANDBOX_SELLER.bankName)}</TNHang>
      </NBan>
      <NMua>
        <Ten>${escapeXml(inv.BuyerLegalName)}</Ten>
        <MST>${escapeXml(inv.BuyerTaxCode)}</MST>
        <DChi>${escapeXml(inv.BuyerAddress)}</DChi>
        <MKHang>${escapeXml(inv.BuyerCode)}</MKHang>
        <SDThoai>${escapeXml(inv.BuyerPhoneNumber)}</SDThoai>
        <DCTDTu>${escapeXml(inv.BuyerEmail)}</DCTDTu>
        <HVTNMHang>${escapeXml(inv.BuyerFullName)}</HVTNMHang>
        <STKNHang>${escapeXml(inv.BuyerBankAccount)}</STKNHang>
        <TNHang>${escapeXml(inv.BuyerBankName)}</TNHang>
      </NMua>
      <DSHHDVu>
${lines}
      </DSHHDVu>
      <TToan>
        <THTTLTSuat>
${rates}
        </THTTLTSuat>
        <TgTCThue>${inv.TotalAmountWithoutVATOC}</TgTCThue>
        <TgTThue>${inv.TotalVATAmountOC}</TgTThue>
        <TTCKTMai>${inv.TotalDiscountAmountOC}</TTCKTMai>
        <TgTTTBSo>${inv.TotalAmountOC}</TgTTTBSo>
        <TgTTTBChu>${escapeXml(inv.TotalAmountInWords)}</TgTTTBChu>
      </TToan>
    </NDHDon>
  </DLHDon>
  <MCCQT>${inv.kind === 'withoutCode' ? '' : `M1-${inv.InvSeries.slice(2, 4)}-SBX00-${escapeXml(inv.TransactionID ?? '')}`}</MCCQT>
</HDon>
`;
}

export function renderHtml(inv: SandboxInvoice): string {
  const { d, m, y } = dateParts(inv.InvDate);
  const cur = inv.CurrencyCode;
  const rows = inv.OriginalInvoiceDetail.map(
    (l) =>
      `<tr><td>${l.LineNumber}</td><td>${escapeXml(l.ItemName)}</td><td>${escapeXml(l.UnitName)}</td><td class="n">${l.ItemType === 4 ? '' : formatQty(l.Quantity)}</td><td class="n">${l.ItemType === 4 ? '' : formatAmount(l.UnitPrice, cur)}</td><td class="n">${l.ItemType === 4 ? '' : formatAmount(l.AmountWithoutVATOC, cur)}</td><td>${escapeXml(l.VATRateName)}</td></tr>`,
  ).join('\n');
  return `<!DOCTYPE html>
<html lang="vi">
<head>
<meta charset="utf-8">
<title>${escapeXml(inv.InvoiceName)} ${escapeXml(inv.InvSeries)} ${escapeXml(inv.InvNo ?? '')}</title>
<style>body{font-family:"DejaVu Sans",Arial,sans-serif;font-size:13px;margin:24px}h1{text-align:center;font-size:20px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #888;padding:3px 6px}.n{text-align:right}</style>
</head>
<body>
<p><b>${escapeXml(SANDBOX_SELLER.name)}</b><br>Mã số thuế: ${SANDBOX_SELLER.taxCode}<br>Địa chỉ: ${escapeXml(SANDBOX_SELLER.address)}</p>
<h1>${escapeXml(inv.InvoiceName).toUpperCase()}</h1>
<p style="text-align:center">Ngày ${d} tháng ${m} năm ${y}<br>Ký hiệu: ${escapeXml(inv.InvSeries)} &nbsp; Số: ${escapeXml(inv.InvNo ?? '')}<br>Mã tra cứu: ${escapeXml(inv.TransactionID ?? '')}</p>
<p>Họ tên người mua hàng: ${escapeXml(inv.BuyerFullName)}<br>Tên đơn vị: ${escapeXml(inv.BuyerLegalName)}<br>Mã số thuế: ${escapeXml(inv.BuyerTaxCode)}<br>Địa chỉ: ${escapeXml(inv.BuyerAddress)}<br>Hình thức thanh toán: ${escapeXml(inv.PaymentMethodName)}</p>
<table>
<thead><tr><th>STT</th><th>Tên hàng hóa, dịch vụ</th><th>Đơn vị tính</th><th>Số lượng</th><th>Đơn giá</th><th>Thành tiền</th><th>Thuế suất</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p>Cộng tiền hàng: ${formatAmount(inv.TotalAmountWithoutVATOC, cur)}<br>Tiền thuế GTGT: ${formatAmount(inv.TotalVATAmountOC, cur)}<br><b>Tổng cộng tiền thanh toán: ${formatAmount(inv.TotalAmountOC, cur)} ${escapeXml(cur)}</b><br>Số tiền viết bằng chữ: ${escapeXml(inv.TotalAmountInWords)}</p>
</body>
</html>
`;
}

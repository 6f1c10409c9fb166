/**
 * Buyer tax code (mã số thuế). Source: docs/invoice-rules.md#tax-codes — 10 digits (an enterprise), or 10 digits +
 * `-` + 3 digits (a dependent unit / branch); from mid-2025 a 12-digit personal identification
 * number may stand in for an individual. Spaces are ignored.
 */
type TaxCodeKind = 'enterprise' | 'branch' | 'personal';

type TaxCodeCheck = { ok: true; kind: TaxCodeKind; normalised: string } | { ok: false; code: string; message: string; messageVi: string };

function normaliseTaxCode(input: string): string {
  return input.replace(/\s+/g, '');
}

export function checkTaxCode(input: string): TaxCodeCheck {
  const s = normaliseTaxCode(input);
  if (/^\d{10}$/.test(s)) return { ok: true, kind: 'enterprise', normalised: s };
  if (/^\d{10}-\d{3}$/.test(s)) return { ok: true, kind: 'branch', normalised: s };
  if (/^\d{12}$/.test(s)) return { ok: true, kind: 'personal', normalised: s };
  if (/^\d{13}$/.test(s)) {
    const suggestion = `${s.slice(0, 10)}-${s.slice(10)}`;
    return {
      ok: false,
      code: 'taxCode.branchDash',
      message: `Tax code "${s}" has 13 digits: a branch code is written with a dash, e.g. ${suggestion}.`,
      messageVi: `Mã số thuế "${s}" có 13 chữ số: mã đơn vị phụ thuộc phải có dấu gạch ngang, ví dụ ${suggestion}.`,
    };
  }
  return {
    ok: false,
    code: 'taxCode.format',
    message: `Tax code "${s}" is not valid: use 10 digits, 10 digits-3 digits for a branch (0101243150-001), or a 12-digit personal ID number.`,
    messageVi: `Mã số thuế "${s}" không hợp lệ: dùng 10 chữ số, 10 chữ số-3 chữ số cho đơn vị phụ thuộc (0101243150-001), hoặc số định danh cá nhân 12 chữ số.`,
  };
}

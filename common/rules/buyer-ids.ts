/**
 * Buyer identity fields of Decree 70/2025/ND-CP (amending Decree 123/2020), as the issuing
 * documentation names them: BuyerIDNumber (12-digit personal identification number),
 * BuyerPassport (≤ 20 characters), BuyerBudgetCode (7-character code of a budget-using unit:
 * then the unit's name and address are required), SellerShopCode / SellerShopName (the outlet
 * of a shop with several). A buyer with none of these and no tax code is a retail buyer, whose
 * name may be left out.
 */
import { problem, type Problem } from './problem';
import type { InvoiceDraft } from '../money/draft';

const filled = (v: string | undefined | null): boolean => typeof v === 'string' && v.trim() !== '';

/** True for a buyer with neither a tax code nor any Decree 70 identity: the name is optional. */
export function isRetailBuyer(draft: InvoiceDraft): boolean {
  return !filled(draft.BuyerTaxCode) && !filled(draft.BuyerIDNumber) && !filled(draft.BuyerPassport) && !filled(draft.BuyerBudgetCode);
}

export function buyerIdentityProblems(draft: InvoiceDraft): Problem[] {
  const out: Problem[] = [];
  const id = (draft.BuyerIDNumber ?? '').replace(/\s+/g, '');
  if (id !== '' && !/^\d{12}$/.test(id)) {
    out.push(
      problem(['BuyerIDNumber'], 'buyer.idNumber', {
        en: `Personal ID number "${id}" is not valid: it has 12 digits.`,
        vi: `Số định danh cá nhân "${id}" không hợp lệ: phải gồm 12 chữ số.`,
      }),
    );
  }
  const passport = (draft.BuyerPassport ?? '').trim();
  if (passport.length > 20 || (passport !== '' && !/^[A-Za-z0-9]+$/.test(passport))) {
    out.push(
      problem(['BuyerPassport'], 'buyer.passport', {
        en: 'The passport number has at most 20 letters and digits.',
        vi: 'Số hộ chiếu gồm tối đa 20 chữ cái và chữ số.',
      }),
    );
  }
  const budget = (draft.BuyerBudgetCode ?? '').trim();
  if (budget !== '') {
    if (!/^[A-Za-z0-9]{7}$/.test(budget)) {
      out.push(
        problem(['BuyerBudgetCode'], 'buyer.budgetCode', {
          en: `Budget-unit code "${budget}" is not valid: it has 7 characters.`,
          vi: `Mã đơn vị có quan hệ với ngân sách "${budget}" không hợp lệ: phải gồm 7 ký tự.`,
        }),
      );
    }
    const because = { en: 'when the buyer has a budget-unit code', vi: 'khi người mua có mã đơn vị quan hệ ngân sách' };
    // Required already when a tax code is given (rules/required.ts): not reported twice.
    if (!filled(draft.BuyerTaxCode)) {
      if (!filled(draft.BuyerLegalName)) {
        out.push(
          problem(['BuyerLegalName'], 'required.BuyerLegalName', {
            en: `The buyer's legal name is required ${because.en}.`,
            vi: `Cần nhập tên đơn vị mua hàng ${because.vi}.`,
          }),
        );
      }
      if (!filled(draft.BuyerAddress)) {
        out.push(
          problem(['BuyerAddress'], 'required.BuyerAddress', {
            en: `The buyer's address is required ${because.en}.`,
            vi: `Cần nhập địa chỉ người mua ${because.vi}.`,
          }),
        );
      }
    }
  }
  if ((id !== '' || passport !== '') && !filled(draft.BuyerTaxCode) && budget === '' && !filled(draft.BuyerFullName) && !filled(draft.BuyerLegalName)) {
    out.push(
      problem(['BuyerFullName'], 'required.BuyerFullName', {
        en: "The buyer's name is required when an ID or passport number is given.",
        vi: 'Cần nhập tên người mua khi có số định danh hoặc số hộ chiếu.',
      }),
    );
  }
  if (filled(draft.SellerShopCode) && !filled(draft.SellerShopName)) {
    out.push(
      problem(
        ['SellerShopName'],
        'seller.shopName',
        {
          en: 'Give the name of the outlet whose code is filled in.',
          vi: 'Cần nhập tên cửa hàng khi đã có mã cửa hàng.',
        },
        'warning',
      ),
    );
  }
  return out;
}

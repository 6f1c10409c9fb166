import { allowsLineDiscount, carriesAmounts } from '../../../../common/money';

/** Lines of this type carry quantity, price and VAT (not a note line). */
export const hasAmounts = (itemType: number) => itemType !== 4 && (carriesAmounts(itemType) || itemType === 2);
export const allowsDiscount = (itemType: number) => allowsLineDiscount(itemType);

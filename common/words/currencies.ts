/**
 * Currency names for amounts in words. `minor` is null for currencies read without a minor
 * unit (VND, JPY, KRW). Unknown codes fall back to the code itself and "xu"/"cents".
 */
export interface CurrencyWords {
  vi: { major: string; minor: string | null };
  en: { major: string; majorOne: string; minor: string | null; minorOne: string | null };
}

export const CURRENCY_WORDS: Readonly<Record<string, CurrencyWords>> = {
  VND: { vi: { major: 'đồng', minor: null }, en: { major: 'dong', majorOne: 'dong', minor: null, minorOne: null } },
  USD: { vi: { major: 'đô la Mỹ', minor: 'xu' }, en: { major: 'US dollars', majorOne: 'US dollar', minor: 'cents', minorOne: 'cent' } },
  EUR: { vi: { major: 'euro', minor: 'xu' }, en: { major: 'euros', majorOne: 'euro', minor: 'cents', minorOne: 'cent' } },
  JPY: { vi: { major: 'yên Nhật', minor: null }, en: { major: 'Japanese yen', majorOne: 'Japanese yen', minor: null, minorOne: null } },
  CNY: { vi: { major: 'nhân dân tệ', minor: 'xu' }, en: { major: 'yuan', majorOne: 'yuan', minor: 'fen', minorOne: 'fen' } },
  KRW: { vi: { major: 'won Hàn Quốc', minor: null }, en: { major: 'Korean won', majorOne: 'Korean won', minor: null, minorOne: null } },
  GBP: { vi: { major: 'bảng Anh', minor: 'xu' }, en: { major: 'pounds sterling', majorOne: 'pound sterling', minor: 'pence', minorOne: 'penny' } },
  AUD: { vi: { major: 'đô la Úc', minor: 'xu' }, en: { major: 'Australian dollars', majorOne: 'Australian dollar', minor: 'cents', minorOne: 'cent' } },
  SGD: { vi: { major: 'đô la Singapore', minor: 'xu' }, en: { major: 'Singapore dollars', majorOne: 'Singapore dollar', minor: 'cents', minorOne: 'cent' } },
  THB: { vi: { major: 'bạt Thái', minor: 'satang' }, en: { major: 'Thai baht', majorOne: 'Thai baht', minor: 'satang', minorOne: 'satang' } },
  HKD: { vi: { major: 'đô la Hồng Kông', minor: 'xu' }, en: { major: 'Hong Kong dollars', majorOne: 'Hong Kong dollar', minor: 'cents', minorOne: 'cent' } },
  CAD: { vi: { major: 'đô la Canada', minor: 'xu' }, en: { major: 'Canadian dollars', majorOne: 'Canadian dollar', minor: 'cents', minorOne: 'cent' } },
  CHF: { vi: { major: 'franc Thụy Sĩ', minor: 'xu' }, en: { major: 'Swiss francs', majorOne: 'Swiss franc', minor: 'centimes', minorOne: 'centime' } },
  TWD: { vi: { major: 'đô la Đài Loan', minor: 'xu' }, en: { major: 'New Taiwan dollars', majorOne: 'New Taiwan dollar', minor: 'cents', minorOne: 'cent' } },
  MYR: { vi: { major: 'ringgit Malaysia', minor: 'sen' }, en: { major: 'Malaysian ringgit', majorOne: 'Malaysian ringgit', minor: 'sen', minorOne: 'sen' } },
  LAK: { vi: { major: 'kíp Lào', minor: null }, en: { major: 'Lao kip', majorOne: 'Lao kip', minor: null, minorOne: null } },
  KHR: { vi: { major: 'riel Campuchia', minor: null }, en: { major: 'Cambodian riel', majorOne: 'Cambodian riel', minor: null, minorOne: null } },
};

export function currencyWords(code: string): CurrencyWords {
  const c = code.trim().toUpperCase() || 'VND';
  return (
    CURRENCY_WORDS[c] ?? {
      vi: { major: c, minor: 'xu' },
      en: { major: c, majorOne: c, minor: 'cents', minorOne: 'cent' },
    }
  );
}

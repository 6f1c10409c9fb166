import { amountInWords, CURRENCY_WORDS } from '../../../common/words';
import type { CliCommand } from '../registry';
import { UsageError } from '../registry';

/** `einvoice words AMOUNT [--currency CODE]` → the amount in words. */
export const wordsCommand: CliCommand = {
  name: 'words',
  summary: { en: 'Write an amount in words (Vietnamese; --english for English)', vi: 'Đọc số tiền bằng chữ (tiếng Việt; --english cho tiếng Anh)' },
  synopsis: 'AMOUNT [--currency CODE] [--english] [--le] [--ngan] [--tu] [--chan]',
  options: {
    currency: { type: 'string', arg: 'CODE', help: 'currency code (default VND): USD, EUR, JPY, …' },
    english: { type: 'boolean', help: 'English reading' },
    le: { type: 'boolean', help: '"lẻ" instead of "linh" for a zero tens digit' },
    ngan: { type: 'boolean', help: '"ngàn" instead of "nghìn"' },
    tu: { type: 'boolean', help: '"tư" for 4 after a tens digit ≥ 2' },
    chan: { type: 'boolean', help: 'append "chẵn" for round amounts' },
  },
  positionals: { min: 1, max: 1 },
  async run(_ctx, { values, positionals }) {
    const amount = positionals[0]!.replace(/[\s_]/g, '');
    if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(amount)) {
      throw new UsageError({ en: `"${positionals[0]}" is not an amount (use digits and a dot, e.g. 1230000 or 12.05).`, vi: `"${positionals[0]}" không phải số tiền (dùng chữ số và dấu chấm, ví dụ 1230000 hoặc 12.05).` }, 'words');
    }
    const currency = (typeof values.currency === 'string' ? values.currency : 'VND').trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      throw new UsageError({ en: `--currency must be a 3-letter code (got ${values.currency}).`, vi: `--currency phải là mã 3 chữ cái (đang là ${values.currency}).` }, 'words');
    }
    const words = amountInWords(amount, currency, {
      language: values.english === true ? 'en' : 'vi',
      zeroTens: values.le === true ? 'lẻ' : 'linh',
      thousand: values.ngan === true ? 'ngàn' : 'nghìn',
      useTu: values.tu === true,
      chan: values.chan === true,
    });
    return { json: { amount, currency, known: currency in CURRENCY_WORDS, words }, text: words };
  },
};

import { dotStyleFor, parseTyped } from '../../../common/money';
import { amountInWords, CURRENCY_WORDS } from '../../../common/words';
import { flag, text } from '../options';
import { UsageError, type CliCommand } from '../registry';

/** `einvoice words AMOUNT [--currency CODE]` → the amount in words. */
export const wordsCommand: CliCommand = {
  name: 'words',
  summary: { en: 'Write an amount in words (Vietnamese; --english for English)', vi: 'Đọc số tiền bằng chữ (tiếng Việt; --english cho tiếng Anh)' },
  options: {
    currency: text('CODE', 'currency code (default VND): USD, EUR, JPY, …'),
    english: flag('English reading'),
    le: flag('"lẻ" instead of "linh" for a zero tens digit'),
    ngan: flag('"ngàn" instead of "nghìn"'),
    tu: flag('"tư" for 4 after a tens digit ≥ 2'),
    chan: flag('append "chẵn" for round amounts'),
  },
  positionals: { min: 1, max: 1, label: 'AMOUNT' },
  async run(_ctx, { values, positionals }) {
    const currency = (typeof values.currency === 'string' ? values.currency : 'VND').trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      throw new UsageError(
        { en: `--currency must be a 3-letter code (got ${values.currency}).`, vi: `--currency phải là mã 3 chữ cái (đang là ${values.currency}).` },
        'words',
      );
    }
    // The same reader as the app's amount fields: 1.230.000 and 1230000 alike; 12,05 or 12.05 in USD.
    const typed = parseTyped(positionals[0]!.replace(/_/g, ''), { dot: dotStyleFor('amount', currency) });
    if (typed.kind !== 'ok') {
      const why = typed.kind === 'refused' ? typed : { en: 'an amount is needed.', vi: 'cần nhập số tiền.' };
      throw new UsageError({ en: `Not an amount: ${why.en}`, vi: `Không phải số tiền: ${why.vi}` }, 'words');
    }
    const amount = typed.text;
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

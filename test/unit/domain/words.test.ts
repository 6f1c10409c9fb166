/**
 * Amount in words: a hand-written table. Every expected reading below was typed and checked by
 * hand against the rules in docs/invoice-rules.md#amount-in-words (mốt, lăm, tư, linh/lẻ, "không trăm",
 * nghìn/ngàn/triệu/tỷ, tỷ repeated) — none is produced by code.
 *
 * Columns: amount, currency, then the reading under four option settings:
 *   S1 default   { zeroTens: 'linh', thousand: 'nghìn', useTu: false, chan: false }
 *   S2           { zeroTens: 'lẻ',   thousand: 'ngàn' }
 *   S3           { useTu: true, chan: true }   ("chẵn" when there is no minor part)
 *   S4           { zeroTens: 'lẻ', thousand: 'ngàn', useTu: true, chan: true }
 */
import { describe, expect, it } from 'vitest';
import { amountInWords, readVietnameseNumber, readEnglishNumber, type AmountInWordsOptions } from '../../../common/words';

type Row = [amount: string, currency: string, s1: string, s2: string, s3: string, s4: string];

const S1: AmountInWordsOptions = {};
const S2: AmountInWordsOptions = { zeroTens: 'lẻ', thousand: 'ngàn' };
const S3: AmountInWordsOptions = { useTu: true, chan: true };
const S4: AmountInWordsOptions = { zeroTens: 'lẻ', thousand: 'ngàn', useTu: true, chan: true };

const TABLE: Row[] = [
  ['0', 'VND', 'Không đồng', 'Không đồng', 'Không đồng chẵn', 'Không đồng chẵn'],
  ['1', 'VND', 'Một đồng', 'Một đồng', 'Một đồng chẵn', 'Một đồng chẵn'],
  ['4', 'VND', 'Bốn đồng', 'Bốn đồng', 'Bốn đồng chẵn', 'Bốn đồng chẵn'],
  ['5', 'VND', 'Năm đồng', 'Năm đồng', 'Năm đồng chẵn', 'Năm đồng chẵn'],
  ['10', 'VND', 'Mười đồng', 'Mười đồng', 'Mười đồng chẵn', 'Mười đồng chẵn'],
  ['11', 'VND', 'Mười một đồng', 'Mười một đồng', 'Mười một đồng chẵn', 'Mười một đồng chẵn'],
  ['14', 'VND', 'Mười bốn đồng', 'Mười bốn đồng', 'Mười bốn đồng chẵn', 'Mười bốn đồng chẵn'],
  ['15', 'VND', 'Mười lăm đồng', 'Mười lăm đồng', 'Mười lăm đồng chẵn', 'Mười lăm đồng chẵn'],
  ['20', 'VND', 'Hai mươi đồng', 'Hai mươi đồng', 'Hai mươi đồng chẵn', 'Hai mươi đồng chẵn'],
  ['21', 'VND', 'Hai mươi mốt đồng', 'Hai mươi mốt đồng', 'Hai mươi mốt đồng chẵn', 'Hai mươi mốt đồng chẵn'],
  ['24', 'VND', 'Hai mươi bốn đồng', 'Hai mươi bốn đồng', 'Hai mươi tư đồng chẵn', 'Hai mươi tư đồng chẵn'],
  ['25', 'VND', 'Hai mươi lăm đồng', 'Hai mươi lăm đồng', 'Hai mươi lăm đồng chẵn', 'Hai mươi lăm đồng chẵn'],
  ['30', 'VND', 'Ba mươi đồng', 'Ba mươi đồng', 'Ba mươi đồng chẵn', 'Ba mươi đồng chẵn'],
  ['44', 'VND', 'Bốn mươi bốn đồng', 'Bốn mươi bốn đồng', 'Bốn mươi tư đồng chẵn', 'Bốn mươi tư đồng chẵn'],
  ['55', 'VND', 'Năm mươi lăm đồng', 'Năm mươi lăm đồng', 'Năm mươi lăm đồng chẵn', 'Năm mươi lăm đồng chẵn'],
  ['71', 'VND', 'Bảy mươi mốt đồng', 'Bảy mươi mốt đồng', 'Bảy mươi mốt đồng chẵn', 'Bảy mươi mốt đồng chẵn'],
  ['99', 'VND', 'Chín mươi chín đồng', 'Chín mươi chín đồng', 'Chín mươi chín đồng chẵn', 'Chín mươi chín đồng chẵn'],
  ['100', 'VND', 'Một trăm đồng', 'Một trăm đồng', 'Một trăm đồng chẵn', 'Một trăm đồng chẵn'],
  ['101', 'VND', 'Một trăm linh một đồng', 'Một trăm lẻ một đồng', 'Một trăm linh một đồng chẵn', 'Một trăm lẻ một đồng chẵn'],
  ['104', 'VND', 'Một trăm linh bốn đồng', 'Một trăm lẻ bốn đồng', 'Một trăm linh bốn đồng chẵn', 'Một trăm lẻ bốn đồng chẵn'],
  ['105', 'VND', 'Một trăm linh năm đồng', 'Một trăm lẻ năm đồng', 'Một trăm linh năm đồng chẵn', 'Một trăm lẻ năm đồng chẵn'],
  ['110', 'VND', 'Một trăm mười đồng', 'Một trăm mười đồng', 'Một trăm mười đồng chẵn', 'Một trăm mười đồng chẵn'],
  ['111', 'VND', 'Một trăm mười một đồng', 'Một trăm mười một đồng', 'Một trăm mười một đồng chẵn', 'Một trăm mười một đồng chẵn'],
  ['115', 'VND', 'Một trăm mười lăm đồng', 'Một trăm mười lăm đồng', 'Một trăm mười lăm đồng chẵn', 'Một trăm mười lăm đồng chẵn'],
  ['121', 'VND', 'Một trăm hai mươi mốt đồng', 'Một trăm hai mươi mốt đồng', 'Một trăm hai mươi mốt đồng chẵn', 'Một trăm hai mươi mốt đồng chẵn'],
  ['124', 'VND', 'Một trăm hai mươi bốn đồng', 'Một trăm hai mươi bốn đồng', 'Một trăm hai mươi tư đồng chẵn', 'Một trăm hai mươi tư đồng chẵn'],
  ['200', 'VND', 'Hai trăm đồng', 'Hai trăm đồng', 'Hai trăm đồng chẵn', 'Hai trăm đồng chẵn'],
  ['305', 'VND', 'Ba trăm linh năm đồng', 'Ba trăm lẻ năm đồng', 'Ba trăm linh năm đồng chẵn', 'Ba trăm lẻ năm đồng chẵn'],
  ['999', 'VND', 'Chín trăm chín mươi chín đồng', 'Chín trăm chín mươi chín đồng', 'Chín trăm chín mươi chín đồng chẵn', 'Chín trăm chín mươi chín đồng chẵn'],
  ['1000', 'VND', 'Một nghìn đồng', 'Một ngàn đồng', 'Một nghìn đồng chẵn', 'Một ngàn đồng chẵn'],
  [
    '1001',
    'VND',
    'Một nghìn không trăm linh một đồng',
    'Một ngàn không trăm lẻ một đồng',
    'Một nghìn không trăm linh một đồng chẵn',
    'Một ngàn không trăm lẻ một đồng chẵn',
  ],
  [
    '1010',
    'VND',
    'Một nghìn không trăm mười đồng',
    'Một ngàn không trăm mười đồng',
    'Một nghìn không trăm mười đồng chẵn',
    'Một ngàn không trăm mười đồng chẵn',
  ],
  [
    '1015',
    'VND',
    'Một nghìn không trăm mười lăm đồng',
    'Một ngàn không trăm mười lăm đồng',
    'Một nghìn không trăm mười lăm đồng chẵn',
    'Một ngàn không trăm mười lăm đồng chẵn',
  ],
  [
    '1021',
    'VND',
    'Một nghìn không trăm hai mươi mốt đồng',
    'Một ngàn không trăm hai mươi mốt đồng',
    'Một nghìn không trăm hai mươi mốt đồng chẵn',
    'Một ngàn không trăm hai mươi mốt đồng chẵn',
  ],
  ['1100', 'VND', 'Một nghìn một trăm đồng', 'Một ngàn một trăm đồng', 'Một nghìn một trăm đồng chẵn', 'Một ngàn một trăm đồng chẵn'],
  [
    '1234',
    'VND',
    'Một nghìn hai trăm ba mươi bốn đồng',
    'Một ngàn hai trăm ba mươi bốn đồng',
    'Một nghìn hai trăm ba mươi tư đồng chẵn',
    'Một ngàn hai trăm ba mươi tư đồng chẵn',
  ],
  [
    '2005',
    'VND',
    'Hai nghìn không trăm linh năm đồng',
    'Hai ngàn không trăm lẻ năm đồng',
    'Hai nghìn không trăm linh năm đồng chẵn',
    'Hai ngàn không trăm lẻ năm đồng chẵn',
  ],
  ['10000', 'VND', 'Mười nghìn đồng', 'Mười ngàn đồng', 'Mười nghìn đồng chẵn', 'Mười ngàn đồng chẵn'],
  [
    '10005',
    'VND',
    'Mười nghìn không trăm linh năm đồng',
    'Mười ngàn không trăm lẻ năm đồng',
    'Mười nghìn không trăm linh năm đồng chẵn',
    'Mười ngàn không trăm lẻ năm đồng chẵn',
  ],
  ['11000', 'VND', 'Mười một nghìn đồng', 'Mười một ngàn đồng', 'Mười một nghìn đồng chẵn', 'Mười một ngàn đồng chẵn'],
  ['15000', 'VND', 'Mười lăm nghìn đồng', 'Mười lăm ngàn đồng', 'Mười lăm nghìn đồng chẵn', 'Mười lăm ngàn đồng chẵn'],
  ['21000', 'VND', 'Hai mươi mốt nghìn đồng', 'Hai mươi mốt ngàn đồng', 'Hai mươi mốt nghìn đồng chẵn', 'Hai mươi mốt ngàn đồng chẵn'],
  [
    '25500',
    'VND',
    'Hai mươi lăm nghìn năm trăm đồng',
    'Hai mươi lăm ngàn năm trăm đồng',
    'Hai mươi lăm nghìn năm trăm đồng chẵn',
    'Hai mươi lăm ngàn năm trăm đồng chẵn',
  ],
  [
    '40004',
    'VND',
    'Bốn mươi nghìn không trăm linh bốn đồng',
    'Bốn mươi ngàn không trăm lẻ bốn đồng',
    'Bốn mươi nghìn không trăm linh bốn đồng chẵn',
    'Bốn mươi ngàn không trăm lẻ bốn đồng chẵn',
  ],
  [
    '54054',
    'VND',
    'Năm mươi bốn nghìn không trăm năm mươi bốn đồng',
    'Năm mươi bốn ngàn không trăm năm mươi bốn đồng',
    'Năm mươi tư nghìn không trăm năm mươi tư đồng chẵn',
    'Năm mươi tư ngàn không trăm năm mươi tư đồng chẵn',
  ],
  ['100000', 'VND', 'Một trăm nghìn đồng', 'Một trăm ngàn đồng', 'Một trăm nghìn đồng chẵn', 'Một trăm ngàn đồng chẵn'],
  ['105000', 'VND', 'Một trăm linh năm nghìn đồng', 'Một trăm lẻ năm ngàn đồng', 'Một trăm linh năm nghìn đồng chẵn', 'Một trăm lẻ năm ngàn đồng chẵn'],
  ['110000', 'VND', 'Một trăm mười nghìn đồng', 'Một trăm mười ngàn đồng', 'Một trăm mười nghìn đồng chẵn', 'Một trăm mười ngàn đồng chẵn'],
  ['250000', 'VND', 'Hai trăm năm mươi nghìn đồng', 'Hai trăm năm mươi ngàn đồng', 'Hai trăm năm mươi nghìn đồng chẵn', 'Hai trăm năm mươi ngàn đồng chẵn'],
  ['500000', 'VND', 'Năm trăm nghìn đồng', 'Năm trăm ngàn đồng', 'Năm trăm nghìn đồng chẵn', 'Năm trăm ngàn đồng chẵn'],
  ['1000000', 'VND', 'Một triệu đồng', 'Một triệu đồng', 'Một triệu đồng chẵn', 'Một triệu đồng chẵn'],
  [
    '1000001',
    'VND',
    'Một triệu không trăm linh một đồng',
    'Một triệu không trăm lẻ một đồng',
    'Một triệu không trăm linh một đồng chẵn',
    'Một triệu không trăm lẻ một đồng chẵn',
  ],
  [
    '1000010',
    'VND',
    'Một triệu không trăm mười đồng',
    'Một triệu không trăm mười đồng',
    'Một triệu không trăm mười đồng chẵn',
    'Một triệu không trăm mười đồng chẵn',
  ],
  ['1000100', 'VND', 'Một triệu một trăm đồng', 'Một triệu một trăm đồng', 'Một triệu một trăm đồng chẵn', 'Một triệu một trăm đồng chẵn'],
  [
    '1001000',
    'VND',
    'Một triệu không trăm linh một nghìn đồng',
    'Một triệu không trăm lẻ một ngàn đồng',
    'Một triệu không trăm linh một nghìn đồng chẵn',
    'Một triệu không trăm lẻ một ngàn đồng chẵn',
  ],
  [
    '1230000',
    'VND',
    'Một triệu hai trăm ba mươi nghìn đồng',
    'Một triệu hai trăm ba mươi ngàn đồng',
    'Một triệu hai trăm ba mươi nghìn đồng chẵn',
    'Một triệu hai trăm ba mươi ngàn đồng chẵn',
  ],
  [
    '1500000',
    'VND',
    'Một triệu năm trăm nghìn đồng',
    'Một triệu năm trăm ngàn đồng',
    'Một triệu năm trăm nghìn đồng chẵn',
    'Một triệu năm trăm ngàn đồng chẵn',
  ],
  [
    '2024000',
    'VND',
    'Hai triệu không trăm hai mươi bốn nghìn đồng',
    'Hai triệu không trăm hai mươi bốn ngàn đồng',
    'Hai triệu không trăm hai mươi tư nghìn đồng chẵn',
    'Hai triệu không trăm hai mươi tư ngàn đồng chẵn',
  ],
  [
    '8008008',
    'VND',
    'Tám triệu không trăm linh tám nghìn không trăm linh tám đồng',
    'Tám triệu không trăm lẻ tám ngàn không trăm lẻ tám đồng',
    'Tám triệu không trăm linh tám nghìn không trăm linh tám đồng chẵn',
    'Tám triệu không trăm lẻ tám ngàn không trăm lẻ tám đồng chẵn',
  ],
  ['10000000', 'VND', 'Mười triệu đồng', 'Mười triệu đồng', 'Mười triệu đồng chẵn', 'Mười triệu đồng chẵn'],
  [
    '15000005',
    'VND',
    'Mười lăm triệu không trăm linh năm đồng',
    'Mười lăm triệu không trăm lẻ năm đồng',
    'Mười lăm triệu không trăm linh năm đồng chẵn',
    'Mười lăm triệu không trăm lẻ năm đồng chẵn',
  ],
  [
    '21021021',
    'VND',
    'Hai mươi mốt triệu không trăm hai mươi mốt nghìn không trăm hai mươi mốt đồng',
    'Hai mươi mốt triệu không trăm hai mươi mốt ngàn không trăm hai mươi mốt đồng',
    'Hai mươi mốt triệu không trăm hai mươi mốt nghìn không trăm hai mươi mốt đồng chẵn',
    'Hai mươi mốt triệu không trăm hai mươi mốt ngàn không trăm hai mươi mốt đồng chẵn',
  ],
  ['100000000', 'VND', 'Một trăm triệu đồng', 'Một trăm triệu đồng', 'Một trăm triệu đồng chẵn', 'Một trăm triệu đồng chẵn'],
  [
    '105105105',
    'VND',
    'Một trăm linh năm triệu một trăm linh năm nghìn một trăm linh năm đồng',
    'Một trăm lẻ năm triệu một trăm lẻ năm ngàn một trăm lẻ năm đồng',
    'Một trăm linh năm triệu một trăm linh năm nghìn một trăm linh năm đồng chẵn',
    'Một trăm lẻ năm triệu một trăm lẻ năm ngàn một trăm lẻ năm đồng chẵn',
  ],
  [
    '700000070',
    'VND',
    'Bảy trăm triệu không trăm bảy mươi đồng',
    'Bảy trăm triệu không trăm bảy mươi đồng',
    'Bảy trăm triệu không trăm bảy mươi đồng chẵn',
    'Bảy trăm triệu không trăm bảy mươi đồng chẵn',
  ],
  [
    '999999999',
    'VND',
    'Chín trăm chín mươi chín triệu chín trăm chín mươi chín nghìn chín trăm chín mươi chín đồng',
    'Chín trăm chín mươi chín triệu chín trăm chín mươi chín ngàn chín trăm chín mươi chín đồng',
    'Chín trăm chín mươi chín triệu chín trăm chín mươi chín nghìn chín trăm chín mươi chín đồng chẵn',
    'Chín trăm chín mươi chín triệu chín trăm chín mươi chín ngàn chín trăm chín mươi chín đồng chẵn',
  ],
  ['1000000000', 'VND', 'Một tỷ đồng', 'Một tỷ đồng', 'Một tỷ đồng chẵn', 'Một tỷ đồng chẵn'],
  [
    '1000000001',
    'VND',
    'Một tỷ không trăm linh một đồng',
    'Một tỷ không trăm lẻ một đồng',
    'Một tỷ không trăm linh một đồng chẵn',
    'Một tỷ không trăm lẻ một đồng chẵn',
  ],
  [
    '1000001000',
    'VND',
    'Một tỷ không trăm linh một nghìn đồng',
    'Một tỷ không trăm lẻ một ngàn đồng',
    'Một tỷ không trăm linh một nghìn đồng chẵn',
    'Một tỷ không trăm lẻ một ngàn đồng chẵn',
  ],
  [
    '1001000000',
    'VND',
    'Một tỷ không trăm linh một triệu đồng',
    'Một tỷ không trăm lẻ một triệu đồng',
    'Một tỷ không trăm linh một triệu đồng chẵn',
    'Một tỷ không trăm lẻ một triệu đồng chẵn',
  ],
  [
    '1234567890',
    'VND',
    'Một tỷ hai trăm ba mươi bốn triệu năm trăm sáu mươi bảy nghìn tám trăm chín mươi đồng',
    'Một tỷ hai trăm ba mươi bốn triệu năm trăm sáu mươi bảy ngàn tám trăm chín mươi đồng',
    'Một tỷ hai trăm ba mươi tư triệu năm trăm sáu mươi bảy nghìn tám trăm chín mươi đồng chẵn',
    'Một tỷ hai trăm ba mươi tư triệu năm trăm sáu mươi bảy ngàn tám trăm chín mươi đồng chẵn',
  ],
  ['5000000000', 'VND', 'Năm tỷ đồng', 'Năm tỷ đồng', 'Năm tỷ đồng chẵn', 'Năm tỷ đồng chẵn'],
  ['10000000000', 'VND', 'Mười tỷ đồng', 'Mười tỷ đồng', 'Mười tỷ đồng chẵn', 'Mười tỷ đồng chẵn'],
  ['25000000000', 'VND', 'Hai mươi lăm tỷ đồng', 'Hai mươi lăm tỷ đồng', 'Hai mươi lăm tỷ đồng chẵn', 'Hai mươi lăm tỷ đồng chẵn'],
  ['100000000000', 'VND', 'Một trăm tỷ đồng', 'Một trăm tỷ đồng', 'Một trăm tỷ đồng chẵn', 'Một trăm tỷ đồng chẵn'],
  ['1000000000000', 'VND', 'Một nghìn tỷ đồng', 'Một ngàn tỷ đồng', 'Một nghìn tỷ đồng chẵn', 'Một ngàn tỷ đồng chẵn'],
  [
    '1000000000001',
    'VND',
    'Một nghìn tỷ không trăm linh một đồng',
    'Một ngàn tỷ không trăm lẻ một đồng',
    'Một nghìn tỷ không trăm linh một đồng chẵn',
    'Một ngàn tỷ không trăm lẻ một đồng chẵn',
  ],
  [
    '1001000000000',
    'VND',
    'Một nghìn không trăm linh một tỷ đồng',
    'Một ngàn không trăm lẻ một tỷ đồng',
    'Một nghìn không trăm linh một tỷ đồng chẵn',
    'Một ngàn không trăm lẻ một tỷ đồng chẵn',
  ],
  ['1500000000000', 'VND', 'Một nghìn năm trăm tỷ đồng', 'Một ngàn năm trăm tỷ đồng', 'Một nghìn năm trăm tỷ đồng chẵn', 'Một ngàn năm trăm tỷ đồng chẵn'],
  ['10000000000000', 'VND', 'Mười nghìn tỷ đồng', 'Mười ngàn tỷ đồng', 'Mười nghìn tỷ đồng chẵn', 'Mười ngàn tỷ đồng chẵn'],
  ['100000000000000', 'VND', 'Một trăm nghìn tỷ đồng', 'Một trăm ngàn tỷ đồng', 'Một trăm nghìn tỷ đồng chẵn', 'Một trăm ngàn tỷ đồng chẵn'],
  [
    '999999999999999',
    'VND',
    'Chín trăm chín mươi chín nghìn chín trăm chín mươi chín tỷ chín trăm chín mươi chín triệu chín trăm chín mươi chín nghìn chín trăm chín mươi chín đồng',
    'Chín trăm chín mươi chín ngàn chín trăm chín mươi chín tỷ chín trăm chín mươi chín triệu chín trăm chín mươi chín ngàn chín trăm chín mươi chín đồng',
    'Chín trăm chín mươi chín nghìn chín trăm chín mươi chín tỷ chín trăm chín mươi chín triệu chín trăm chín mươi chín nghìn chín trăm chín mươi chín đồng chẵn',
    'Chín trăm chín mươi chín ngàn chín trăm chín mươi chín tỷ chín trăm chín mươi chín triệu chín trăm chín mươi chín ngàn chín trăm chín mươi chín đồng chẵn',
  ],
  ['1000000000000000', 'VND', 'Một triệu tỷ đồng', 'Một triệu tỷ đồng', 'Một triệu tỷ đồng chẵn', 'Một triệu tỷ đồng chẵn'],
  ['1000000000000000000', 'VND', 'Một tỷ tỷ đồng', 'Một tỷ tỷ đồng', 'Một tỷ tỷ đồng chẵn', 'Một tỷ tỷ đồng chẵn'],
  ['-1', 'VND', 'Âm một đồng', 'Âm một đồng', 'Âm một đồng chẵn', 'Âm một đồng chẵn'],
  ['-105', 'VND', 'Âm một trăm linh năm đồng', 'Âm một trăm lẻ năm đồng', 'Âm một trăm linh năm đồng chẵn', 'Âm một trăm lẻ năm đồng chẵn'],
  [
    '-1230000',
    'VND',
    'Âm một triệu hai trăm ba mươi nghìn đồng',
    'Âm một triệu hai trăm ba mươi ngàn đồng',
    'Âm một triệu hai trăm ba mươi nghìn đồng chẵn',
    'Âm một triệu hai trăm ba mươi ngàn đồng chẵn',
  ],
  // VND is rounded to whole đồng first (half-up).
  [
    '1230000.4',
    'VND',
    'Một triệu hai trăm ba mươi nghìn đồng',
    'Một triệu hai trăm ba mươi ngàn đồng',
    'Một triệu hai trăm ba mươi nghìn đồng chẵn',
    'Một triệu hai trăm ba mươi ngàn đồng chẵn',
  ],
  ['999.5', 'VND', 'Một nghìn đồng', 'Một ngàn đồng', 'Một nghìn đồng chẵn', 'Một ngàn đồng chẵn'],
  // Foreign currencies with a minor unit: no "chẵn" when there are minor units.
  ['12.05', 'USD', 'Mười hai đô la Mỹ năm xu', 'Mười hai đô la Mỹ năm xu', 'Mười hai đô la Mỹ năm xu', 'Mười hai đô la Mỹ năm xu'],
  ['0.99', 'USD', 'Chín mươi chín xu', 'Chín mươi chín xu', 'Chín mươi chín xu', 'Chín mươi chín xu'],
  ['1', 'USD', 'Một đô la Mỹ', 'Một đô la Mỹ', 'Một đô la Mỹ chẵn', 'Một đô la Mỹ chẵn'],
  [
    '1234.50',
    'USD',
    'Một nghìn hai trăm ba mươi bốn đô la Mỹ năm mươi xu',
    'Một ngàn hai trăm ba mươi bốn đô la Mỹ năm mươi xu',
    'Một nghìn hai trăm ba mươi tư đô la Mỹ năm mươi xu',
    'Một ngàn hai trăm ba mươi tư đô la Mỹ năm mươi xu',
  ],
  ['100.01', 'USD', 'Một trăm đô la Mỹ một xu', 'Một trăm đô la Mỹ một xu', 'Một trăm đô la Mỹ một xu', 'Một trăm đô la Mỹ một xu'],
  [
    '21.21',
    'USD',
    'Hai mươi mốt đô la Mỹ hai mươi mốt xu',
    'Hai mươi mốt đô la Mỹ hai mươi mốt xu',
    'Hai mươi mốt đô la Mỹ hai mươi mốt xu',
    'Hai mươi mốt đô la Mỹ hai mươi mốt xu',
  ],
  [
    '105.15',
    'USD',
    'Một trăm linh năm đô la Mỹ mười lăm xu',
    'Một trăm lẻ năm đô la Mỹ mười lăm xu',
    'Một trăm linh năm đô la Mỹ mười lăm xu',
    'Một trăm lẻ năm đô la Mỹ mười lăm xu',
  ],
  ['0.005', 'USD', 'Một xu', 'Một xu', 'Một xu', 'Một xu'],
  ['1000000.00', 'USD', 'Một triệu đô la Mỹ', 'Một triệu đô la Mỹ', 'Một triệu đô la Mỹ chẵn', 'Một triệu đô la Mỹ chẵn'],
  ['-3.5', 'USD', 'Âm ba đô la Mỹ năm mươi xu', 'Âm ba đô la Mỹ năm mươi xu', 'Âm ba đô la Mỹ năm mươi xu', 'Âm ba đô la Mỹ năm mươi xu'],
  [
    '2500.75',
    'EUR',
    'Hai nghìn năm trăm euro bảy mươi lăm xu',
    'Hai ngàn năm trăm euro bảy mươi lăm xu',
    'Hai nghìn năm trăm euro bảy mươi lăm xu',
    'Hai ngàn năm trăm euro bảy mươi lăm xu',
  ],
  [
    '150000',
    'JPY',
    'Một trăm năm mươi nghìn yên Nhật',
    'Một trăm năm mươi ngàn yên Nhật',
    'Một trăm năm mươi nghìn yên Nhật chẵn',
    'Một trăm năm mươi ngàn yên Nhật chẵn',
  ],
  ['1000000', 'KRW', 'Một triệu won Hàn Quốc', 'Một triệu won Hàn Quốc', 'Một triệu won Hàn Quốc chẵn', 'Một triệu won Hàn Quốc chẵn'],
  [
    '88.8',
    'CNY',
    'Tám mươi tám nhân dân tệ tám mươi xu',
    'Tám mươi tám nhân dân tệ tám mươi xu',
    'Tám mươi tám nhân dân tệ tám mươi xu',
    'Tám mươi tám nhân dân tệ tám mươi xu',
  ],
  ['45.04', 'GBP', 'Bốn mươi lăm bảng Anh bốn xu', 'Bốn mươi lăm bảng Anh bốn xu', 'Bốn mươi lăm bảng Anh bốn xu', 'Bốn mươi lăm bảng Anh bốn xu'],
  [
    '1001.10',
    'AUD',
    'Một nghìn không trăm linh một đô la Úc mười xu',
    'Một ngàn không trăm lẻ một đô la Úc mười xu',
    'Một nghìn không trăm linh một đô la Úc mười xu',
    'Một ngàn không trăm lẻ một đô la Úc mười xu',
  ],
  [
    '24.24',
    'SGD',
    'Hai mươi bốn đô la Singapore hai mươi bốn xu',
    'Hai mươi bốn đô la Singapore hai mươi bốn xu',
    'Hai mươi tư đô la Singapore hai mươi tư xu',
    'Hai mươi tư đô la Singapore hai mươi tư xu',
  ],
  [
    '350.25',
    'THB',
    'Ba trăm năm mươi bạt Thái hai mươi lăm satang',
    'Ba trăm năm mươi bạt Thái hai mươi lăm satang',
    'Ba trăm năm mươi bạt Thái hai mươi lăm satang',
    'Ba trăm năm mươi bạt Thái hai mươi lăm satang',
  ],
];

describe('amount in words: hand-checked table', () => {
  it('has at least 80 rows', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(80);
  });
  const settings: [string, AmountInWordsOptions, 2 | 3 | 4 | 5][] = [
    ['S1 default (linh, nghìn)', S1, 2],
    ['S2 lẻ + ngàn', S2, 3],
    ['S3 tư + chẵn', S3, 4],
    ['S4 lẻ + ngàn + tư + chẵn', S4, 5],
  ];
  for (const [name, options, col] of settings) {
    describe(name, () => {
      it.each(TABLE.map((r) => [r[0], r[1], r[col]] as const))('%s %s → %s', (amount, currency, expected) => {
        expect(amountInWords(amount, currency, options)).toBe(expected);
      });
    });
  }
});

describe('amount in words: other inputs', () => {
  it('the example of docs/invoice-rules.md#amount-in-words', () => {
    expect(amountInWords(1230000, 'VND')).toBe('Một triệu hai trăm ba mươi nghìn đồng');
  });
  it('takes numbers, strings and bigints alike', () => {
    expect(amountInWords(1001n, 'VND')).toBe('Một nghìn không trăm linh một đồng');
    expect(amountInWords('1001', 'VND')).toBe('Một nghìn không trăm linh một đồng');
  });
  it('lower case on request', () => {
    expect(amountInWords(21, 'VND', { capitalise: false })).toBe('hai mươi mốt đồng');
  });
  it('a currency without minor unit forced to 2 decimals reads the fraction after "phẩy"', () => {
    expect(amountInWords('12.5', 'JPY', { decimals: 2 })).toBe('Mười hai phẩy năm yên Nhật');
  });
  it('an unknown currency falls back to its code', () => {
    expect(amountInWords('3.10', 'XYZ')).toBe('Ba XYZ mười xu');
  });
  it('readVietnameseNumber reads a bare number', () => {
    expect(readVietnameseNumber(0n)).toBe('không');
    expect(readVietnameseNumber(1_000_000_000_000_001n)).toBe('một triệu tỷ không trăm linh một');
    expect(() => readVietnameseNumber(-1n)).toThrow(RangeError);
  });
});

describe('amount in words: English', () => {
  const EN: [string, string, string][] = [
    ['0', 'VND', 'Zero dong'],
    ['1', 'VND', 'One dong'],
    ['15', 'VND', 'Fifteen dong'],
    ['21', 'VND', 'Twenty-one dong'],
    ['105', 'VND', 'One hundred five dong'],
    ['110', 'VND', 'One hundred ten dong'],
    ['1001', 'VND', 'One thousand one dong'],
    ['10005', 'VND', 'Ten thousand five dong'],
    ['1230000', 'VND', 'One million two hundred thirty thousand dong'],
    ['1000000001', 'VND', 'One billion one dong'],
    ['1000000000000', 'VND', 'One trillion dong'],
    [
      '999999999999999',
      'VND',
      'Nine hundred ninety-nine trillion nine hundred ninety-nine billion nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine dong',
    ],
    ['-40', 'VND', 'Minus forty dong'],
    ['1', 'USD', 'One US dollar'],
    ['12.05', 'USD', 'Twelve US dollars and five cents'],
    ['0.01', 'USD', 'One cent'],
    ['1.01', 'USD', 'One US dollar and one cent'],
    ['2500.75', 'EUR', 'Two thousand five hundred euros and seventy-five cents'],
    ['45.01', 'GBP', 'Forty-five pounds sterling and one penny'],
    ['150000', 'JPY', 'One hundred fifty thousand Japanese yen'],
    ['350.25', 'THB', 'Three hundred fifty Thai baht and twenty-five satang'],
  ];
  it.each(EN)('%s %s → %s', (amount, currency, expected) => {
    expect(amountInWords(amount, currency, { language: 'en' })).toBe(expected);
  });
  it('"only" for round amounts when chan is on', () => {
    expect(amountInWords('500000', 'VND', { language: 'en', chan: true })).toBe('Five hundred thousand dong only');
    expect(amountInWords('5.50', 'USD', { language: 'en', chan: true })).toBe('Five US dollars and fifty cents');
  });
  it('readEnglishNumber', () => {
    expect(readEnglishNumber(1_000_000_000_000_000n)).toBe('one quadrillion');
    expect(readEnglishNumber(90n)).toBe('ninety');
  });
});

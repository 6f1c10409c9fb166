/** The queue table's row words, looked up once per language, say what a lookup per row says. */
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenT } from '../../support/i18n';
import { EMAIL_STATES, type EmailEntry } from '../../../common/calls/emails';
import { formatDateTime, formatTime } from '../../../common/format';
import { emailResult, resultWords } from '../../../renderer/src/emails/result';
import { SLOT, withSlot } from '../../../renderer/src/i18n/slot';

let t: Record<'vi' | 'en', TFunction>;
beforeAll(async () => {
  t = await screenT();
});

function entry(patch: Partial<EmailEntry>): EmailEntry {
  return {
    id: 7,
    transactionId: 'TX-7',
    receiverName: 'Công ty Hoa Sen',
    receiverEmail: 'ketoan@hoasen.vn',
    ccEmail: '',
    bccEmail: '',
    replyEmail: '',
    kind: 'withCode',
    state: 'queued',
    attempts: 0,
    nextAttemptAt: null,
    sendEmailStatus: null,
    errorCode: null,
    lastError: null,
    createdAt: '2026-11-27T01:00:00.000Z',
    updatedAt: '2026-11-27T01:00:00.000Z',
    doneAt: null,
    ...patch,
  } as EmailEntry;
}

describe.each(['vi', 'en'] as const)('row words in %s', (lang) => {
  it('a message with its value filled in once equals the message looked up with that value', () => {
    for (const tx of ['TX-1', '', 'a$&b', '{{tx}}', 'Ðơn 1']) {
      expect(withSlot(t[lang]('emails.selectRow', { tx: SLOT }))(tx)).toBe(t[lang]('emails.selectRow', { tx }));
    }
    expect(withSlot(`${SLOT} và ${SLOT}`)('x')).toBe('x và x');
    expect(withSlot('no value')('x')).toBe('no value');
  });

  it('the result column says the same with the words looked up once as with a lookup per row', () => {
    const words = resultWords(t[lang]);
    const at = '2026-11-27T03:04:05.000Z';
    const cases: Array<[Partial<EmailEntry>, string]> = [
      [{ state: 'sent', doneAt: at }, t[lang]('emails.result.sentAt', { at: formatDateTime(at, lang) })],
      [{ state: 'sent' }, t[lang]('emails.result.sent')],
      [{ state: 'requested' }, t[lang]('emails.result.requested')],
      [{ state: 'sendingAtService' }, t[lang]('emails.result.sendingAtService')],
      [{ state: 'failed' }, t[lang]('emails.result.failed')],
      [{ state: 'failed', lastError: { en: 'Bad address', vi: 'Sai địa chỉ' }, errorCode: 'InvalidEmail' }, lang === 'vi' ? 'Sai địa chỉ' : 'Bad address'],
      [{ state: 'unknown' }, t[lang]('emails.result.unknown')],
      [{ state: 'queued', attempts: 2, nextAttemptAt: at }, t[lang]('emails.result.retryAt', { time: formatTime(at, lang) })],
      [{ state: 'queued' }, ''],
    ];
    for (const [patch, text] of cases) expect(emailResult(entry(patch), lang, words).text, JSON.stringify(patch)).toBe(text);
    expect(emailResult(entry({ state: 'failed', errorCode: 'InvalidEmail', lastError: { en: 'Bad address', vi: 'Sai địa chỉ' } }), lang, words).code).toBe(
      'InvalidEmail',
    );
    // Every state has words; none is left as a key.
    for (const state of EMAIL_STATES) expect(emailResult(entry({ state, doneAt: at }), lang, words).text).not.toMatch(/emails\.result/);
  });
});

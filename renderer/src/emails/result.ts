import type { TFunction } from 'i18next';
import type { EmailEntry } from '../../../common/calls/emails';
import { formatDateTime, formatTime } from '../../../common/format';
import { pick } from '../../../common/model';
import type { Lang } from '../app/error-text';
import { SLOT, withSlot } from '../i18n/slot';

/** The result column's words in one language, looked up once (a row then calls no translation). */
export interface ResultWords {
  sent: string;
  sentAt: (at: string) => string;
  requested: string;
  sendingAtService: string;
  failed: string;
  unknown: string;
  retryAt: (time: string) => string;
}

export function resultWords(t: TFunction): ResultWords {
  return {
    sent: t('emails.result.sent'),
    sentAt: withSlot(t('emails.result.sentAt', { at: SLOT })),
    requested: t('emails.result.requested'),
    sendingAtService: t('emails.result.sendingAtService'),
    failed: t('emails.result.failed'),
    unknown: t('emails.result.unknown'),
    retryAt: withSlot(t('emails.result.retryAt', { time: SLOT })),
  };
}

/**
 * What the result column says about an entry, in words: the outcome, or the error's meaning.
 * The service's error code is given separately (shown once, small) unless the meaning already
 * names it.
 */
export function emailResult(e: EmailEntry, lang: Lang, words: ResultWords): { text: string; code: string | null } {
  const err = e.lastError ? pick(e.lastError, lang) : null;
  const code = e.errorCode && !(err ?? '').includes(e.errorCode) ? e.errorCode : null;
  switch (e.state) {
    case 'sent':
      return { text: e.doneAt ? words.sentAt(formatDateTime(e.doneAt, lang)) : words.sent, code: null };
    case 'requested':
      return { text: words.requested, code: null };
    case 'sendingAtService':
      return { text: words.sendingAtService, code: null };
    case 'failed':
      return { text: err ?? words.failed, code };
    case 'unknown':
      return { text: err ?? words.unknown, code };
    case 'queued':
      if (e.attempts > 0 && e.nextAttemptAt) return { text: words.retryAt(formatTime(e.nextAttemptAt, lang)), code };
      return { text: err ?? '', code };
    default:
      return { text: err ?? '', code };
  }
}

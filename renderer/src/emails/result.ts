import type { TFunction } from 'i18next';
import type { EmailEntry } from '../../../common/calls/emails';
import { formatDateTime, formatTime } from '../../../common/format';
import { pick } from '../../../common/model';
import type { Lang } from '../app/error-text';

/**
 * What the result column says about an entry, in words: the outcome, or the error's meaning.
 * The service's error code is given separately (shown once, small) unless the meaning already
 * names it.
 */
export function emailResult(e: EmailEntry, lang: Lang, t: TFunction): { text: string; code: string | null } {
  const err = e.lastError ? pick(e.lastError, lang) : null;
  const code = e.errorCode && !(err ?? '').includes(e.errorCode) ? e.errorCode : null;
  switch (e.state) {
    case 'sent':
      return { text: e.doneAt ? t('emails.result.sentAt', { at: formatDateTime(e.doneAt, lang) }) : t('emails.result.sent'), code: null };
    case 'requested':
      return { text: t('emails.result.requested'), code: null };
    case 'sendingAtService':
      return { text: t('emails.result.sendingAtService'), code: null };
    case 'failed':
      return { text: err ?? t('emails.result.failed'), code };
    case 'unknown':
      return { text: err ?? t('emails.result.unknown'), code };
    case 'queued':
      if (e.attempts > 0 && e.nextAttemptAt) return { text: t('emails.result.retryAt', { time: formatTime(e.nextAttemptAt, lang) }), code };
      return { text: err ?? '', code };
    default:
      return { text: err ?? '', code };
  }
}

import type { TFunction } from 'i18next';
import type { IssueEntry, IssueRunnerStatus, IssueState } from '../../../common/calls/issuing';
import { formatDateTime, formatTime } from '../../../common/format';
import { pick } from '../../../common/model';
import { currencyDecimals, formatTyped } from '../../../common/money';
import type { Lang } from '../app/error-text';

/** A total as the invoice prints it (vi-VN grouping, the currency's decimals) with its currency. */
export function formatTotal(total: string, currency: string): string {
  let text = total;
  try {
    text = formatTyped(total, { dot: 'thousands', decimals: currencyDecimals(currency) });
  } catch {
    // not a number: shown as stored
  }
  return `${text} ${currency || 'VND'}`;
}

/** The service's reason (or the app's) in words, and its code when the words do not name it already. */
export function reasonOf(e: Pick<IssueEntry, 'lastError' | 'errorCode'>, lang: Lang): { text: string | null; code: string | null } {
  const text = e.lastError ? pick(e.lastError, lang) : null;
  const code = e.errorCode && !(text ?? '').includes(e.errorCode) ? e.errorCode : null;
  return { text, code };
}

/** What happened after issuing: the download and the email, in words (empty when both are off). */
export function followUpText(e: IssueEntry, t: TFunction): string {
  const parts: string[] = [];
  if (e.download !== 'off') parts.push(t(`issuing.followUp.download.${e.download}`));
  if (e.email !== 'off') parts.push(t(`issuing.followUp.email.${e.email}`, { to: e.buyerEmail }));
  return parts.join(' · ');
}

/**
 * Refused invoices whose draft was edited and queued again since: a newer entry of the same draft
 * exists (the list is the queue's history; the refusal stays as it was).
 */
export function supersededIds(items: readonly IssueEntry[]): ReadonlySet<number> {
  return new Set(items.filter((e) => e.reopened).map((e) => e.id));
}

/**
 * The result column of the queue table: the outcome, the follow-ups, or the reason in words. While
 * the connection is down a waiting invoice only says so (the status line above gives the detail).
 */
export function resultText(
  e: IssueEntry,
  lang: Lang,
  t: TFunction,
  context: { offline: boolean; superseded: boolean } = { offline: false, superseded: false },
): { text: string; code: string | null } {
  const reason = reasonOf(e, lang);
  if (e.state === 'queued' && context.offline) return { text: t('issuing.area.result.waitingOnline'), code: null };
  if (e.state === 'failed' && context.superseded) {
    return { text: [reason.text, t('issuing.area.result.superseded')].filter(Boolean).join(' · '), code: reason.code };
  }
  switch (e.state) {
    case 'issued': {
      const at = e.issuedAt ? t('issuing.area.result.issuedAt', { at: formatDateTime(e.issuedAt, lang) }) : '';
      return { text: [at, followUpText(e, t)].filter(Boolean).join(' · '), code: null };
    }
    case 'issuing':
      return { text: t('issuing.area.result.issuing'), code: null };
    case 'failed':
      return { text: reason.text ?? t('issuing.banner.failed'), code: reason.code };
    case 'unknown': {
      const next = e.nextAttemptAt ? t('issuing.area.result.unknownAt', { time: formatTime(e.nextAttemptAt, lang) }) : '';
      return { text: [reason.text, next].filter(Boolean).join(' · ') || t('issuing.banner.unknown'), code: reason.code };
    }
    case 'queued': {
      const due = e.nextAttemptAt && Date.parse(e.nextAttemptAt) > Date.now();
      const when = due ? t('issuing.area.result.queuedAt', { time: formatTime(e.nextAttemptAt!, lang) }) : t('issuing.area.result.waiting');
      return { text: [reason.text, when].filter(Boolean).join(' · '), code: reason.code };
    }
  }
}

/** The editor banner's headline for the entry's state. */
export function bannerHeadline(e: Pick<IssueEntry, 'state' | 'invNo' | 'nextAttemptAt'>, online: boolean | undefined, lang: Lang, t: TFunction): string {
  switch (e.state) {
    case 'queued':
      if (online === false) return t('issuing.banner.queuedOffline');
      return e.nextAttemptAt && Date.parse(e.nextAttemptAt) > Date.now() + 1000
        ? t('issuing.banner.queuedAt', { time: formatTime(e.nextAttemptAt, lang) })
        : t('issuing.banner.queued');
    case 'issuing':
      return t('issuing.banner.issuing');
    case 'issued':
      return e.invNo ? t('issuing.banner.issued', { invNo: e.invNo }) : t('issuing.banner.issuedLater');
    case 'failed':
      return t('issuing.banner.failed');
    case 'unknown':
      return t('issuing.banner.unknown');
  }
}

/**
 * The runner's state in words, with its reason when it waits for one. A wait with only unknown
 * invoices left is the next lookup, not an error; offline needs no technical detail.
 */
export function runnerText(r: IssueRunnerStatus, counts: Partial<Record<IssueState, number>> | undefined, lang: Lang, t: TFunction): string {
  const time = r.nextAttemptAt ? formatTime(r.nextAttemptAt, lang) : '…';
  if (r.state === 'offline') return r.nextAttemptAt ? t('issuing.area.runner.offlineAt', { time }) : t('issuing.area.runner.offline');
  if (r.state === 'backoff' && !counts?.queued && counts?.unknown) return t('issuing.area.runner.checkAt', { time });
  const head = r.state === 'backoff' ? t('issuing.area.runner.backoff', { time }) : t(`issuing.area.runner.${r.state}`);
  return (r.state === 'paused' || r.state === 'backoff') && r.lastError ? `${head} ${pick(r.lastError, lang)}` : head;
}

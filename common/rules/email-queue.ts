import type { EmailEntry, EmailState } from '../calls/emails';

/** States in which a person may still change an entry's recipients (nothing is on its way). */
export const EDITABLE_EMAIL_STATES: readonly EmailState[] = ['queued', 'failed', 'unknown', 'cancelled'];

export function isEditableEmail(entry: Pick<EmailEntry, 'state'>): boolean {
  return EDITABLE_EMAIL_STATES.includes(entry.state);
}

/** Outcomes after which the service may already have emailed the buyer (sent, handed over, or unknown). */
export const MAYBE_SENT_EMAIL_STATES: readonly EmailState[] = ['sent', 'requested', 'sendingAtService', 'unknown'];

/**
 * How many of the entries chosen for "send again" may already have reached the customer:
 * sending those again is the person's explicit choice, so it needs their confirmation.
 */
export function resendNeedsConfirmation(entries: readonly Pick<EmailEntry, 'state'>[]): number {
  return entries.filter((e) => MAYBE_SENT_EMAIL_STATES.includes(e.state)).length;
}

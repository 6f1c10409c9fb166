import type { EmailEntry, EmailState } from '../calls/emails';

/** States in which a person may still change an entry's recipients (nothing is on its way). */
export const EDITABLE_EMAIL_STATES: readonly EmailState[] = ['queued', 'failed', 'unknown', 'cancelled'];

export function isEditableEmail(entry: Pick<EmailEntry, 'state'>): boolean {
  return EDITABLE_EMAIL_STATES.includes(entry.state);
}

/**
 * How many of the entries chosen for "send again" may already have reached the customer (the
 * outcome is unknown): sending them again needs the person to confirm it.
 */
export function resendNeedsConfirmation(entries: readonly Pick<EmailEntry, 'state'>[]): number {
  return entries.filter((e) => e.state === 'unknown').length;
}

import { describe, expect, it } from 'vitest';
import { EMAIL_STATES } from '../../../common/calls/emails';
import { isEditableEmail, resendNeedsConfirmation } from '../../../common/rules/email-queue';

describe('email queue rules the screen applies', () => {
  it('lets recipients be edited only while nothing is on its way or done', () => {
    const editable = EMAIL_STATES.filter((state) => isEditableEmail({ state }));
    expect(editable).toEqual(['queued', 'failed', 'unknown', 'cancelled']);
  });

  it('counts the entries the buyer may already have received (sent, handed over, unknown) before sending again', () => {
    const entries = [
      { state: 'failed' },
      { state: 'unknown' },
      { state: 'sent' },
      { state: 'requested' },
      { state: 'sendingAtService' },
      { state: 'cancelled' },
      { state: 'queued' },
    ] as const;
    expect(resendNeedsConfirmation(entries)).toBe(4);
    expect(resendNeedsConfirmation([{ state: 'failed' }, { state: 'cancelled' }])).toBe(0);
  });
});

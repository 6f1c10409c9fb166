import { describe, expect, it } from 'vitest';
import { EMAIL_STATES } from '../../../common/calls/emails';
import { isEditableEmail, resendNeedsConfirmation } from '../../../common/rules/email-queue';

describe('email queue rules the screen applies', () => {
  it('lets recipients be edited only while nothing is on its way or done', () => {
    const editable = EMAIL_STATES.filter((state) => isEditableEmail({ state }));
    expect(editable).toEqual(['queued', 'failed', 'unknown', 'cancelled']);
  });

  it('counts the entries the buyer may already have received (sent, handed to the service or unknown) before sending again', () => {
    expect(resendNeedsConfirmation([{ state: 'failed' }, { state: 'unknown' }, { state: 'unknown' }, { state: 'sent' }])).toBe(3);
    expect(resendNeedsConfirmation([{ state: 'requested' }, { state: 'sendingAtService' }, { state: 'cancelled' }, { state: 'queued' }])).toBe(2);
    expect(resendNeedsConfirmation([{ state: 'failed' }])).toBe(0);
  });
});

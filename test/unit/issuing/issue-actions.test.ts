import { describe, expect, it } from 'vitest';
import { ISSUE_STATES } from '../../../common/calls/issuing';
import { issueEntryActions } from '../../../common/rules/issue-actions';

const entry = { state: 'failed' as const, reopened: false, retryable: true, draftId: 'd1', emailId: null, transactionId: null, download: 'off' as const };

describe('issueEntryActions', () => {
  it('a refused invoice: retry when the refusal was passing, reopen when it has a draft', () => {
    expect(issueEntryActions(entry)).toEqual({ retry: true, reopen: true, check: false, openEmail: false, chooseFolder: false });
    expect(issueEntryActions({ ...entry, retryable: false })).toMatchObject({ retry: false, reopen: true });
    expect(issueEntryActions({ ...entry, draftId: null })).toMatchObject({ retry: true, reopen: false });
  });

  it('a refusal already reopened offers neither', () => {
    expect(issueEntryActions({ ...entry, reopened: true })).toMatchObject({ retry: false, reopen: false });
  });

  it('only an unknown outcome is asked about; no other state is retried or reopened', () => {
    for (const state of ISSUE_STATES) {
      const a = issueEntryActions({ ...entry, state });
      expect(a.check).toBe(state === 'unknown');
      if (state !== 'failed') expect([a.retry, a.reopen]).toEqual([false, false]);
    }
  });

  it('the email opens once there is an email entry and a TransactionID', () => {
    const issued = { ...entry, state: 'issued' as const };
    expect(issueEntryActions({ ...issued, emailId: 3, transactionId: 'T1' }).openEmail).toBe(true);
    expect(issueEntryActions({ ...issued, emailId: 3, transactionId: null }).openEmail).toBe(false);
    expect(issueEntryActions({ ...issued, emailId: null, transactionId: 'T1' }).openEmail).toBe(false);
  });

  it('Settings opens from an issued invoice whose file waits for a download folder, from no other', () => {
    const issued = { ...entry, state: 'issued' as const, transactionId: 'T1' };
    expect(issueEntryActions({ ...issued, download: 'noFolder' }).chooseFolder).toBe(true);
    for (const download of ['off', 'waiting', 'done', 'failed'] as const) expect(issueEntryActions({ ...issued, download }).chooseFolder).toBe(false);
    for (const state of ISSUE_STATES.filter((s) => s !== 'issued'))
      expect(issueEntryActions({ ...entry, state, download: 'noFolder' }).chooseFolder).toBe(false);
  });
});

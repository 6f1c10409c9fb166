import type { IssueEntry } from '../calls/issuing';

/** What a person may do with an invoice of the issue queue in its present state. */
export interface IssueEntryActions {
  /** Send it again as it was: refused for a passing reason. */
  retry: boolean;
  /** Open its draft for editing again (it goes out as a new invoice). */
  reopen: boolean;
  /** Ask the service what became of it. */
  check: boolean;
  /** Show its email in the email queue. */
  openEmail: boolean;
  /** Go to Settings to choose the download folder its file waits for. */
  chooseFolder: boolean;
}

/** A refusal already reopened is history: its draft went out again, so it offers nothing more. */
export function issueEntryActions(
  e: Pick<IssueEntry, 'state' | 'reopened' | 'retryable' | 'draftId' | 'emailId' | 'transactionId' | 'download'>,
): IssueEntryActions {
  const refused = e.state === 'failed' && !e.reopened;
  return {
    retry: refused && e.retryable,
    reopen: refused && !!e.draftId,
    check: e.state === 'unknown',
    openEmail: e.emailId !== null && !!e.transactionId,
    chooseFolder: e.state === 'issued' && e.download === 'noFolder',
  };
}

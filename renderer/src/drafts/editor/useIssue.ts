import { useCallback, useState } from 'react';
import { CallError } from '../../../../common/ipc/bridge';
import { pick } from '../../../../common/model';
import { issueBlocked } from '../../../../common/rules/issue-checks';
import type { Problem } from '../../../../common/validation';
import { bridge } from '../../bridge';
import { useLanguage, useT } from '../../i18n/useWords';
import { flushSave } from './autosave';
import { fieldLabel } from './labels';
import { useEditor, type ServiceIssue } from './store';
import { messageOf } from './useDraftProblems';

/** What the last press of Issue left to say: nothing, or why the draft was not queued. */
export type IssueAttempt = { state: 'idle' } | { state: 'error'; message: string };

/**
 * The answer to the dialog: queued, or refused — with the words for the dialog's email field when
 * it was that, else the first field named (focused once the dialog has closed).
 */
export type QueueResult = { ok: true } | { ok: false; emailError?: string; field?: string };

/**
 * Issue: saves the draft, queues it (online or not) and locks the editor. A refusal that names
 * fields puts its words next to them, as preview errors are; a bad address typed in the dialog is
 * said in the dialog.
 */
export function useIssue(id: string): {
  attempt: IssueAttempt;
  queue(emails: string | undefined): Promise<QueueResult>;
  /** Says why the draft is not offered for issuing: the first of the errors the app finds in it, and how many more. */
  refuse(errors: Problem[]): void;
  clear(): void;
} {
  const t = useT();
  const lang = useLanguage();
  const setServiceIssues = useEditor((s) => s.setServiceIssues);
  const setIssue = useEditor((s) => s.setIssue);
  const [attempt, setAttempt] = useState<IssueAttempt>({ state: 'idle' });

  const queue = useCallback(
    async (emails: string | undefined): Promise<QueueResult> => {
      setServiceIssues({});
      try {
        await flushSave(true);
        const entry = await bridge.call('issuing.queue', { draftId: id, ...(emails === undefined ? {} : { emails }) });
        setIssue({ id: entry.id, state: entry.state, invNo: entry.invNo });
        setAttempt({ state: 'idle' });
        return { ok: true };
      } catch (error) {
        const payload = error instanceof CallError ? error.payload : { code: 'internal', message: String(error), messageVi: String(error), issues: undefined };
        const draftEmail = useEditor.getState().draft?.BuyerEmail.trim() ?? '';
        if (payload.code === 'email.format' && emails !== undefined && emails.trim() !== draftEmail) {
          return { ok: false, emailError: messageOf(payload, lang) };
        }
        // The draft's checks speak in sentences; a terse word ("không hợp lệ") needs the field's label.
        const issues: Record<string, ServiceIssue> = {};
        for (const issue of payload.issues ?? []) {
          if (!issue.path || issues[issue.path]) continue;
          const words = messageOf(issue, lang);
          issues[issue.path] = /[.!?]$/.test(words.trim()) ? { message: words } : { message: `${fieldLabel(issue.path, t)}: ${words}`, code: issue.code };
        }
        setServiceIssues(issues);
        const first = Object.keys(issues)[0];
        setAttempt({ state: 'error', message: messageOf(payload, lang) });
        return first ? { ok: false, field: first } : { ok: false };
      }
    },
    [id, lang, t, setServiceIssues, setIssue],
  );

  const refuse = useCallback(
    (errors: Problem[]) => {
      // The words main sends when its own check refuses (issue_check_failed), then what to do here.
      const blocked = pick(issueBlocked(errors), lang);
      setAttempt({ state: 'error', message: `${blocked} ${t(errors.length > 1 ? 'drafts.problems.issueFixMore' : 'drafts.problems.issueFix')}` });
    },
    [lang, t],
  );

  return { attempt, queue, refuse, clear: useCallback(() => setAttempt({ state: 'idle' }), []) };
}

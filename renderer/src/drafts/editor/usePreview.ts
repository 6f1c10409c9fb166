import { useCallback, useEffect, useState } from 'react';
import { CallError } from '../../../../common/ipc/bridge';
import { isUnreachableCode as isOfflineCode } from '../../../../common/rules/network';
import type { Problem } from '../../../../common/validation';
import { bridge } from '../../bridge';
import { useLanguage, useT } from '../../i18n/useWords';
import { flushSave } from './autosave';
import { fieldLabel } from './labels';
import { useEditor, type ServiceIssue } from './store';
import { messageOf } from './useDraftProblems';

export type PreviewState =
  | { state: 'idle' | 'busy' }
  | { state: 'done'; href?: string }
  | { state: 'error'; message: string; offline: boolean; code?: string }
  /** Not sent: the draft's own check lists errors (shown instead; "preview anyway" sends). */
  | { state: 'blocked'; errors: Problem[] };

/**
 * Preview (F8): refused locally while the draft has errors, else saved, sent, and opened. Not
 * offered once the invoice is issued (`offered` false): a page marked "not issued" is no copy of it.
 */
export function usePreview(id: string, errorsNow: () => Problem[], offered = true): { preview: PreviewState; run(force?: boolean): Promise<void> } {
  const t = useT();
  const lang = useLanguage();
  const focus = useEditor((s) => s.focus);
  const setServiceIssues = useEditor((s) => s.setServiceIssues);
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });

  const run = useCallback(
    async (force = false) => {
      const errors = force ? [] : errorsNow();
      if (errors.length > 0) {
        setPreview({ state: 'blocked', errors });
        focus(errors[0]!.path);
        return;
      }
      setPreview({ state: 'busy' });
      setServiceIssues({});
      try {
        await flushSave();
        const result = await bridge.call('preview.run', { draftId: id });
        const opened = await bridge.call('preview.open', { previewId: result.previewId });
        let href: string | undefined;
        if (opened.path) {
          // The host answers with a one-time link; the cookie, not the address, carries the secret.
          href = opened.path;
          window.open(href, '_blank', 'noopener');
        }
        setPreview(href ? { state: 'done', href } : { state: 'done' });
      } catch (error) {
        const payload = error instanceof CallError ? error.payload : { code: 'internal', message: String(error), messageVi: String(error), issues: undefined };
        const offline = isOfflineCode(payload.code);
        // The service's code names a field: say it with the field's label, keep the code small.
        const issues: Record<string, ServiceIssue> = {};
        for (const issue of payload.issues ?? []) {
          if (issue.path) issues[issue.path] = { message: `${fieldLabel(issue.path, t)}: ${messageOf(issue, lang)}`, code: issue.code };
        }
        setServiceIssues(issues);
        const first = Object.keys(issues)[0];
        if (first) focus(first);
        const firstIssue = first ? issues[first] : undefined;
        setPreview({
          state: 'error',
          offline,
          message: offline ? t('drafts.preview.offline', { detail: messageOf(payload, lang) }) : firstIssue ? firstIssue.message : messageOf(payload, lang),
          ...(firstIssue?.code ? { code: firstIssue.code } : {}),
        });
      }
    },
    [id, errorsNow, lang, t, focus, setServiceIssues],
  );

  // F8 previews from anywhere in the editor.
  useEffect(() => {
    if (!offered) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'F8') return;
      e.preventDefault();
      void run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run, offered]);

  return { preview, run };
}

import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useErrorText } from './error-text';

export type NoticeKind = 'ok' | 'error' | 'warning' | 'info';
export interface NoticeMessage {
  kind: NoticeKind;
  text: string;
}

/**
 * One confirmation, error, warning or piece of information, with an optional action after the
 * text. Errors and warnings are alerts (read out at once); the others are polite status messages.
 */
export function Notice({
  notice,
  id,
  onDismiss,
  dismissLabel,
  floating,
  children,
}: {
  notice: NoticeMessage | null | undefined;
  id?: string;
  onDismiss?: () => void;
  dismissLabel?: string;
  /** Shown at the bottom of the window, over the page, wherever it is scrolled. */
  floating?: boolean;
  children?: ReactNode;
}) {
  if (!notice) return null;
  const body = (
    <p id={id} role={notice.kind === 'error' || notice.kind === 'warning' ? 'alert' : 'status'} className={`notice notice-${notice.kind}`}>
      <span>{notice.text}</span>
      {children}
      {onDismiss && dismissLabel && (
        <button type="button" className="notice-close" aria-label={dismissLabel} onClick={onDismiss}>
          ×
        </button>
      )}
    </p>
  );
  return floating ? <div className="toast-region">{body}</div> : body;
}

/**
 * The state behind a Notice: `show('ok', text)`, `fail(error)` in the screen's language, `clear()`.
 * With `autoHideMs`, confirmations and information go away by themselves; errors stay.
 */
export function useNotice(options: { autoHideMs?: number } = {}) {
  const errorText = useErrorText();
  const [notice, setNotice] = useState<NoticeMessage | null>(null);
  const { autoHideMs } = options;
  useEffect(() => {
    if (!notice || !autoHideMs || notice.kind === 'error' || notice.kind === 'warning') return;
    const timer = setTimeout(() => setNotice((current) => (current === notice ? null : current)), autoHideMs);
    return () => clearTimeout(timer);
  }, [notice, autoHideMs]);
  const show = useCallback((kind: NoticeKind, text: string) => setNotice({ kind, text }), []);
  const fail = useCallback((error: unknown) => setNotice({ kind: 'error', text: errorText(error) }), [errorText]);
  const clear = useCallback(() => setNotice(null), []);
  return { notice, show, fail, clear };
}

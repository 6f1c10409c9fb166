import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog opened over the screen (so a form never waits below a tall table): focus moves
 * into it, Escape or the close button closes it, and the focus returns to what opened it.
 */
export function Dialog({
  title,
  closeLabel,
  onClose,
  children,
  className,
}: {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const headingId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      // Taken as the dialog opens (an effect run twice finds it open, the focus already inside).
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    }
    return () => {
      // Gone without close() (its work done): the browser would leave the focus nowhere; it goes back to what opened it.
      const back = opener.current;
      if (back?.isConnected && (document.activeElement === null || document.activeElement === document.body)) back.focus();
    };
  }, []);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby={headingId} className={`dialog ${className ?? ''}`}>
      <div className="dialog-head">
        <h2 id={headingId}>{title}</h2>
        <button type="button" className="dialog-close" aria-label={closeLabel} onClick={() => ref.current?.close()}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, type NoticeMessage } from '../app/Notice';

/** The end of a settings form: its save button (saying when there are edits to save), any other button, then what the last save said. */
export function SaveRow({
  label,
  notice,
  unsaved = false,
  disabled = false,
  children,
}: {
  label: string;
  notice: NoticeMessage | null;
  unsaved?: boolean;
  disabled?: boolean;
  /** Buttons after the save button (e.g. Cancel). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="form-actions" data-unsaved={unsaved}>
        <button type="submit" disabled={disabled}>
          {label}
        </button>
        {children}
        {unsaved && <span className="unsaved-mark">{t('app.unsaved.mark')}</span>}
      </div>
      <Notice notice={notice} />
    </>
  );
}

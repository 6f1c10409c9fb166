import { useTranslation } from 'react-i18next';
import { Notice, type NoticeMessage } from '../app/Notice';

/** The end of a settings form: its save button (saying when there are edits to save), then what the last save said. */
export function SaveRow({ label, notice, unsaved = false }: { label: string; notice: NoticeMessage | null; unsaved?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="form-actions" data-unsaved={unsaved}>
        <button type="submit">{label}</button>
        {unsaved && <span className="unsaved-mark">{t('app.unsaved.mark')}</span>}
      </div>
      <Notice notice={notice} />
    </>
  );
}

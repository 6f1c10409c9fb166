import { Notice, type NoticeMessage } from '../app/Notice';

/** The end of a settings form: its save button, then what the last save said. */
export function SaveRow({ label, notice }: { label: string; notice: NoticeMessage | null }) {
  return (
    <>
      <div className="form-actions">
        <button type="submit">{label}</button>
      </div>
      <Notice notice={notice} />
    </>
  );
}

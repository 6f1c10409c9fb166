import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bridge } from '../bridge';
import { useLive } from './useLive';

/**
 * The folder of the last download (kept in the settings): where the next files go. `remember`
 * keeps a newly typed or chosen folder for next time.
 */
export function useRememberedFolder(): { folder: string; setFolder: (f: string) => void; remember: () => void } {
  const settings = useLive('settings.get', {}, { 'settings.changed': (next) => next }).data;
  const remembered = settings?.downloadFolder ?? null;
  const [folder, setFolder] = useState('');
  useEffect(() => {
    if (remembered) setFolder((current) => current || remembered);
  }, [remembered]);
  const remember = () => {
    if (folder.trim() && folder.trim() !== remembered) void bridge.call('settings.update', { downloadFolder: folder.trim() }).catch(() => {});
  };
  return { folder, setFolder, remember };
}

/** A folder typed as a path, with the desktop's folder dialog beside it (the browser host has none). */
export function FolderField({
  label,
  value,
  onChange,
  onError,
  id,
  problemId,
}: {
  label: string;
  value: string;
  onChange: (f: string) => void;
  onError: (e: unknown) => void;
  /** The path input's id (a form that names a missing folder moves the focus there). */
  id?: string;
  /** The id of the text saying what is wrong with the folder, when something is. */
  problemId?: string | undefined;
}) {
  const { t } = useTranslation();
  /** Whether the host has a folder dialog: unknown until the button is used. */
  const [dialog, setDialog] = useState<boolean | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const choose = async () => {
    try {
      const answer = await bridge.call('downloads.chooseFolder', value ? { defaultPath: value } : {});
      setDialog(answer.supported);
      if (answer.folder) onChange(answer.folder);
      // No dialog here: the button goes, and the keyboard is left where the path is typed.
      if (!answer.supported) input.current?.focus();
    } catch (error) {
      onError(error);
    }
  };
  return (
    <div className="folder-field">
      <label className="field">
        <span>{label}</span>
        <input
          ref={input}
          id={id}
          aria-invalid={problemId ? true : undefined}
          aria-describedby={problemId}
          type="text"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t('downloads.folderHint')}
          required
          spellCheck={false}
        />
      </label>
      {dialog !== false && (
        <button type="button" onClick={() => void choose()}>
          {t('downloads.chooseFolder')}
        </button>
      )}
      {dialog === false && <small>{t('downloads.folderHint')}</small>}
    </div>
  );
}

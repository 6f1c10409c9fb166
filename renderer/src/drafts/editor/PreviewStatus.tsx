import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../app/store';
import { useEditor } from './store';
import { messageOf } from './useDraftProblems';
import type { PreviewState } from './usePreview';

/** What the last preview did: opened, refused by the service, not sent (the draft's errors), offline. */
export const PreviewStatus = memo(function PreviewStatus({ preview, run }: { preview: PreviewState; run(force?: boolean): Promise<void> }) {
  const { t, i18n } = useTranslation();
  const online = useAppStore((s) => s.online);
  const focus = useEditor((s) => s.focus);
  return (
    <div aria-live="polite" className="preview-status">
      {preview.state === 'blocked' && (
        <div role="alert" className="notice notice-error" data-testid="preview-blocked">
          <p>{t('drafts.preview.blocked', { count: preview.errors.length })}</p>
          <ul className="blocked-list">
            {preview.errors.slice(0, 5).map((p, i) => (
              <li key={`${p.path}-${i}`}>
                <button type="button" className="link" onClick={() => focus(p.path)}>
                  {messageOf(p, i18n.language)}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => void run(true)}>
            {t('drafts.preview.anyway')}
          </button>
        </div>
      )}
      {preview.state === 'error' && (
        <p role="alert" className={preview.offline ? 'notice notice-offline' : 'notice notice-error'} data-testid="preview-error">
          {preview.message}
          {preview.code && <small className="error-code"> {preview.code}</small>}
        </p>
      )}
      {preview.state === 'done' && (
        <p className="notice notice-ok" data-testid="preview-done">
          {t('drafts.preview.done')}{' '}
          {preview.href && (
            <a href={preview.href} target="_blank" rel="noopener noreferrer">
              {t('drafts.preview.openAgain')}
            </a>
          )}
        </p>
      )}
      {online === false && preview.state !== 'error' && <p className="notice notice-offline">{t('drafts.preview.offlineHint')}</p>}
    </div>
  );
});

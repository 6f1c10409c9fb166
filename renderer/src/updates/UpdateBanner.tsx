import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLive } from '../app/useLive';
import { bridge } from '../bridge';
import { bannerFor, reasonText } from './model';

/**
 * The updater in the sidebar footer: download progress, "Restart to update", and — when the
 * restart waits for work in progress — what it is waiting for. Shows nothing otherwise.
 */
export function UpdateBanner() {
  const { t, i18n } = useTranslation();
  const live = useLive('updates.status', {}, { 'updates.state': (next) => next });
  const state = live.data;
  const [busy, setBusy] = useState(false);

  const act = (call: 'updates.restart' | 'updates.cancelRestart') => {
    setBusy(true);
    bridge
      .call(call, {})
      .then(
        (next) => live.set(() => next),
        () => {},
      )
      .finally(() => setBusy(false));
  };

  const banner = bannerFor(state);
  if (banner.kind === 'none') return null;
  return (
    <section className="update-banner" aria-label={t('updates.title')} data-testid="update-banner" data-kind={banner.kind}>
      {banner.kind === 'downloading' && (
        <>
          <p role="status">{t('updates.downloading', { version: banner.version, percent: banner.percent })}</p>
          <progress max={100} value={banner.percent} aria-label={t('updates.progress')} />
        </>
      )}
      {banner.kind === 'ready' && (
        <>
          <p role="status">{t('updates.ready', { version: banner.version })}</p>
          <button type="button" className="update-restart" disabled={busy} onClick={() => act('updates.restart')}>
            {t('updates.restart')}
          </button>
        </>
      )}
      {banner.kind === 'waiting' && (
        <>
          <p role="status">{t('updates.waiting', { version: banner.version })}</p>
          <ul className="update-reasons">
            {banner.reasons.map((reason) => (
              <li key={reason.source}>{reasonText(reason, i18n.language)}</li>
            ))}
          </ul>
          <button type="button" disabled={busy} onClick={() => act('updates.cancelRestart')}>
            {t('updates.cancel')}
          </button>
        </>
      )}
      {banner.kind === 'installing' && <p role="status">{t('updates.installing', { version: banner.version })}</p>}
    </section>
  );
}

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UpdateState } from '../../../common/calls/updates';
import { useErrorText } from '../app/error-text';
import { Notice, type NoticeMessage } from '../app/Notice';
import { useLive } from '../app/useLive';
import { bridge } from '../bridge';

/** Automatic updates on/off (unless IT turned them off) and "Export diagnostics" for support. */
export function MaintenanceSection() {
  const { t } = useTranslation();
  const errorOf = useErrorText();
  const ids = { heading: useId(), update: useId(), updateHint: useId(), exportHint: useId() };
  const live = useLive('updates.status', {}, { 'updates.state': (next) => next });
  const update = live.data;
  const setUpdate = (next: UpdateState) => live.set(() => next);
  const [exportState, setExportState] = useState<NoticeMessage | null>(null);

  const lockedReason = update?.status === 'disabled' && update.reason !== 'setting' ? update.reason : undefined;
  const enabled = update !== undefined && update.status !== 'disabled';

  const exportDiagnostics = async () => {
    setExportState({ kind: 'info', text: t('settings.maintenance.exporting') });
    try {
      const result = await bridge.call('diagnostics.export', {});
      setExportState({ kind: 'ok', text: t('settings.maintenance.exported', { path: result.path }) });
    } catch (error) {
      setExportState({ kind: 'error', text: errorOf(error) });
    }
  };

  return (
    <section aria-labelledby={ids.heading} className="settings-section">
      <h2 id={ids.heading}>{t('settings.maintenance.title')}</h2>
      <p>
        <input
          id={ids.update}
          type="checkbox"
          checked={enabled}
          disabled={update === undefined || lockedReason !== undefined}
          aria-describedby={ids.updateHint}
          onChange={(e) => void bridge.call('updates.setEnabled', { enabled: e.target.checked }).then(setUpdate, () => {})}
        />{' '}
        <label htmlFor={ids.update}>{t('settings.maintenance.autoUpdate')}</label>
      </p>
      <p id={ids.updateHint} className="hint">
        {lockedReason === 'env'
          ? t('settings.maintenance.offByAdmin')
          : lockedReason === 'unsupported'
            ? t('settings.maintenance.unsupported')
            : t('settings.maintenance.autoUpdateHint')}
      </p>
      <p>
        <button type="button" aria-describedby={ids.exportHint} onClick={() => void exportDiagnostics()}>
          {t('settings.maintenance.export')}
        </button>
      </p>
      <p id={ids.exportHint} className="hint">
        {t('settings.maintenance.exportHint')}
      </p>
      <Notice notice={exportState} />
    </section>
  );
}

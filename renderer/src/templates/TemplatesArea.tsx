import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bridge } from '../bridge';
import { formatDateTime } from '../../../common/format';
import { useLang } from '../app/error-text';
import { ColumnHeaders } from '../app/fields';
import { Notice } from '../app/Notice';
import { useLive } from '../app/useLive';

/** The template cache of the active profile, with each template's flags; refreshed on demand and when online. */
export function TemplatesArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const live = useLive('templates.list', {}, { 'templates.changed': 'reload' });
  const list = live.data;
  const [busy, setBusy] = useState(false);

  const refresh = async () => {
    setBusy(true);
    try {
      const fresh = await bridge.call('templates.list', { refresh: true });
      live.set(() => fresh);
    } catch {
      // the list keeps what it had; a failed refresh comes back as `error` in the answer
    } finally {
      setBusy(false);
    }
  };

  const yesNo = (v: boolean) => (v ? t('templates.yes') : t('templates.no'));
  return (
    <div className="templates-area">
      <div className="toolbar">
        <button type="button" onClick={() => void refresh()} disabled={busy}>
          {busy ? t('templates.refreshing') : t('templates.refresh')}
        </button>
        <p>{list?.fetchedAt ? t('templates.fetchedAt', { at: formatDateTime(list.fetchedAt, lang) }) : t('templates.never')}</p>
      </div>
      <Notice
        notice={list?.error ? { kind: 'warning', text: t('templates.failed', { message: lang === 'en' ? list.error.message : list.error.messageVi }) } : null}
      />
      {!list || list.templates.length === 0 ? (
        <p className="empty">{t('templates.empty')}</p>
      ) : (
        <table className="drafts-table" data-testid="templates-table">
          <ColumnHeaders columns={(['series', 'name', 'kind', 'withCode', 'status', 'flags'] as const).map((c) => t(`templates.col.${c}`))} />
          <tbody>
            {list.templates.map((tpl) => (
              <tr key={`${tpl.id}-${tpl.withCode}-${tpl.ticket}`} className={tpl.inactive ? 'inactive' : undefined}>
                <td>{tpl.series}</td>
                <td>{tpl.name}</td>
                <td>{tpl.ticket ? t('templates.ticket') : t('templates.invoice')}</td>
                <td>{yesNo(tpl.withCode)}</td>
                <td>{tpl.inactive ? t('templates.inactive') : t('templates.active')}</td>
                <td>
                  {[
                    tpl.isMoreVATRate && t('templates.moreVat'),
                    tpl.isPetrol && t('templates.petrol'),
                    tpl.isSendSummary && t('templates.summary'),
                    tpl.isInheritFromOldTemplate && t('templates.oldStyle'),
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TemplatesList } from '../../../common/calls/templates';
import { bridge } from '../bridge';
import { formatDateTime } from '../format/vi';

/** The template cache of the active profile, with each template's flags; refreshed on demand and when online. */
export function TemplatesArea() {
  const { t, i18n } = useTranslation();
  const [list, setList] = useState<TemplatesList>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (refresh: boolean) => {
    setBusy(refresh);
    try {
      setList(await bridge.call('templates.list', refresh ? { refresh } : {}));
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void load(false);
    return bridge.on('templates.changed', () => void load(false));
  }, [load]);

  const yesNo = (v: boolean) => (v ? t('drafts.templates.yes') : t('drafts.templates.no'));
  return (
    <div className="templates-area">
      <div className="toolbar">
        <button type="button" onClick={() => void load(true)} disabled={busy}>
          {busy ? t('drafts.templates.refreshing') : t('drafts.templates.refresh')}
        </button>
        <p>{list?.fetchedAt ? t('drafts.templates.fetchedAt', { at: formatDateTime(list.fetchedAt) }) : t('drafts.templates.never')}</p>
      </div>
      {list?.error && (
        <p className="notice notice-offline" role="alert">
          {t('drafts.templates.failed', { message: i18n.language === 'en' ? list.error.message : list.error.messageVi })}
        </p>
      )}
      {!list || list.templates.length === 0 ? (
        <p className="empty">{t('drafts.templates.empty')}</p>
      ) : (
        <table className="drafts-table" data-testid="templates-table">
          <thead>
            <tr>
              <th scope="col">{t('drafts.templates.col.series')}</th>
              <th scope="col">{t('drafts.templates.col.name')}</th>
              <th scope="col">{t('drafts.templates.col.kind')}</th>
              <th scope="col">{t('drafts.templates.col.withCode')}</th>
              <th scope="col">{t('drafts.templates.col.status')}</th>
              <th scope="col">{t('drafts.templates.col.flags')}</th>
            </tr>
          </thead>
          <tbody>
            {list.templates.map((tpl) => (
              <tr key={`${tpl.id}-${tpl.withCode}-${tpl.ticket}`} className={tpl.inactive ? 'inactive' : undefined}>
                <td>{tpl.series}</td>
                <td>{tpl.name}</td>
                <td>{tpl.ticket ? t('drafts.templates.ticket') : t('drafts.templates.invoice')}</td>
                <td>{yesNo(tpl.withCode)}</td>
                <td>{tpl.inactive ? t('drafts.templates.inactive') : t('drafts.templates.active')}</td>
                <td>
                  {[
                    tpl.isMoreVATRate && t('drafts.templates.moreVat'),
                    tpl.isPetrol && t('drafts.templates.petrol'),
                    tpl.isSendSummary && t('drafts.templates.summary'),
                    tpl.isInheritFromOldTemplate && t('drafts.templates.oldStyle'),
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

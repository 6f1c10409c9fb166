import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice } from '../../../common/calls/register';
import { formatCount } from '../../../common/format';
import { Dialog } from '../app/Dialog';
import { useLang } from '../app/error-text';
import { Notice, useNotice } from '../app/Notice';
import { IssuedFilters } from './IssuedFilters';
import { IssuedTable } from './IssuedTable';
import { useRegisterScreen } from './useRegisterScreen';

/**
 * "Choose from issued invoices" for screens that otherwise start from pasted IDs: the register's
 * filters and table in a dialog; `onUse` gets the chosen rows and answers null when it took them,
 * or the words saying why not.
 */
export function ChooseIssuedDialog({
  useLabel,
  onUse,
  onClose,
}: {
  useLabel: (count: string) => string;
  onUse: (rows: IssuedInvoice[]) => Promise<string | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const { notice, show, fail } = useNotice();
  const screen = useRegisterScreen(fail);
  const { filter, setFilter, selection, dateError } = screen;
  const [busy, setBusy] = useState(false);
  const count = selection.list.length;
  const use = async () => {
    setBusy(true);
    try {
      const refused = await onUse(selection.list);
      if (refused) show('warning', refused);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={t('issued.choose.title')} closeLabel={t('app.close')} onClose={onClose} className="issued-dialog issued-choose">
      <div className="issued">
        <IssuedFilters value={filter} onChange={setFilter} error={dateError} />
        <IssuedTable screen={screen} lang={lang} actions={false} onWarn={(text) => show('warning', text)} />
        <Notice notice={notice} />
        <div className="dialog-buttons">
          <button type="button" className="primary" disabled={busy || count === 0} onClick={() => void use()}>
            {useLabel(formatCount(count, lang))}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

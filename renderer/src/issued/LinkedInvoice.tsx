import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuedInvoice } from '../../../common/calls/register';
import { dayText, invoiceName } from '../../../common/rules/issued-register';
import type { Lang } from '../app/error-text';
import { bridge } from '../bridge';

/** Names of corrections already looked up (a row scrolled back into view asks no more). */
const names = new Map<string, string>();

function useInvoiceName(transactionId: string | null): string | null {
  const [name, setName] = useState(() => (transactionId ? (names.get(transactionId) ?? null) : null));
  useEffect(() => {
    if (!transactionId || names.has(transactionId)) return;
    let live = true;
    bridge.call('issued.get', { transactionId }).then(
      (inv) => {
        names.set(transactionId, invoiceName(inv));
        if (live) setName(invoiceName(inv));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [transactionId]);
  return transactionId ? (name ?? names.get(transactionId) ?? null) : null;
}

/** The link between an original and its correction, both ways, with a button to go to the other one. */
export function LinkedInvoice({ inv, onGo }: { inv: IssuedInvoice; lang: Lang; onGo: (transactionId: string) => void }) {
  const { t } = useTranslation();
  const correctedBy = useInvoiceName(inv.correctedBy);
  if (inv.original && (inv.referenceType === 1 || inv.referenceType === 2)) {
    const what = t(`issued.link.${inv.referenceType === 1 ? 'replacement' : 'adjustment'}`);
    const name = invoiceName({ invSeries: inv.original.series, invNo: inv.original.invNo });
    const text = t('issued.correctionOf', { what, name, date: inv.original.invDate ? dayText(inv.original.invDate) : '?' });
    const target = inv.original.transactionId;
    return (
      <small className="issued-link" data-testid="issued-link">
        {target ? (
          <button type="button" className="link" title={t('issued.goTo', { name })} onClick={() => onGo(target)}>
            {text}
          </button>
        ) : (
          text
        )}
      </small>
    );
  }
  if (inv.correctedBy) {
    const what = t(`issued.link.${inv.eInvoiceStatus === 7 ? 'replaced' : 'adjusted'}`);
    const name = correctedBy ?? inv.correctedBy;
    const target = inv.correctedBy;
    return (
      <small className="issued-link" data-testid="issued-link">
        <button type="button" className="link" title={t('issued.goTo', { name })} onClick={() => onGo(target)}>
          {t('issued.correctedBy', { what, name })}
        </button>
      </small>
    );
  }
  return null;
}

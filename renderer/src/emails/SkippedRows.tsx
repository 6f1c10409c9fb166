import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailSkip } from '../../../common/calls/emails';
import { pick } from '../../../common/model';
import { errorText, useLang } from '../app/error-text';
import { Notice } from '../app/Notice';
import { bridge } from '../bridge';

/**
 * The invoices an add or import left alone because their email was already sent, handed to the
 * service, unknown or waiting — each with its reason — and the one explicit way to send them
 * again ("Gửi lại"), after the person confirms.
 */
export function SkippedRows({ rows, onResent }: { rows: EmailSkip[]; onResent: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [done, setDone] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  if (rows.length === 0) return null;
  const resend = async () => {
    if (!window.confirm(t('emails.skipped.confirm', { count: rows.length }))) return;
    try {
      const r = await bridge.call('emails.resend', { ids: rows.map((s) => s.entryId) });
      setDone({ kind: 'ok', text: [t('emails.requeued', { count: r.changed }), ...r.left.map((l) => pick(l.reason, lang))].join('\n') });
      onResent();
    } catch (err) {
      setDone({ kind: 'error', text: errorText(err, lang) });
    }
  };
  return (
    <section aria-labelledby="emails-skipped-rows" className="emails-skipped">
      <h3 id="emails-skipped-rows">{t('emails.skipped.title', { count: rows.length })}</h3>
      <ul data-testid="email-skipped-rows">
        {rows.map((s, i) => (
          <li key={`${s.entryId}-${i}`}>
            {s.line !== null && <strong>{t('emails.import.line', { line: s.line })}: </strong>}
            {pick(s.reason, lang)}
          </li>
        ))}
      </ul>
      {done ? (
        <Notice notice={done} />
      ) : (
        <button type="button" onClick={() => void resend()}>
          {t('emails.skipped.resend', { count: rows.length })}
        </button>
      )}
    </section>
  );
}

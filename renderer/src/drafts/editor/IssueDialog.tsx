import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssuingSettings } from '../../../../common/calls/settings';
import type { SignType } from '../../../../common/model/issuing';
import { formatDate } from '../../../../common/format';
import { Dialog } from '../../app/Dialog';
import { useLang } from '../../app/error-text';
import { Notice } from '../../app/Notice';
import type { QueueResult } from './useIssue';

export interface IssueSummary {
  series: string;
  date: string;
  buyer: string;
  /** The total payable, formatted, with its currency. */
  total: string;
  signType: SignType;
  buyerEmail: string;
}

/**
 * "Issue?": what will be issued and how, where the email goes (editable), and whether it goes
 * now or when the connection is back. Enter confirms, Escape cancels.
 */
export function IssueDialog({
  summary,
  emailMode,
  online,
  onQueue,
  onClose,
}: {
  summary: IssueSummary;
  emailMode: IssuingSettings['email'];
  online: boolean | undefined;
  onQueue(emails: string | undefined): Promise<QueueResult>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [email, setEmail] = useState(summary.buyerEmail);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const ids = { email: useId(), emailHint: useId(), emailError: useId() };
  const offline = online === false;

  // The dialog has opened (its own effect ran first): Enter now confirms.
  useEffect(() => confirmRef.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setEmailError(null);
    const result = await onQueue(emailMode === 'off' ? undefined : email.trim());
    setBusy(false);
    if (!result.ok && result.emailError) setEmailError(result.emailError);
    else onClose();
  };

  const rows: Array<[string, string]> = [
    [t('issuing.dialog.series'), summary.series],
    [t('issuing.dialog.date'), summary.date ? formatDate(summary.date, lang) : ''],
    [t('issuing.dialog.signType'), t(`issuing.signType.${summary.signType}`)],
    [t('issuing.dialog.buyer'), summary.buyer || t('issuing.dialog.walkIn')],
    [t('issuing.dialog.total'), summary.total],
  ];
  return (
    <Dialog title={t('issuing.dialog.title')} closeLabel={t('app.close')} onClose={onClose} className="issue-dialog">
      <form onSubmit={(e) => void submit(e)} aria-label={t('issuing.dialog.title')}>
        <dl className="issue-summary" aria-label={t('issuing.dialog.summary')} data-testid="issue-summary">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {emailMode === 'off' ? (
          <p className="hint">{t('issuing.dialog.emailOff')}</p>
        ) : (
          <div className="field">
            <label htmlFor={ids.email}>{t('issuing.dialog.email')}</label>
            <input
              id={ids.email}
              type="text"
              inputMode="email"
              autoComplete="off"
              value={email}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? `${ids.emailError} ${ids.emailHint}` : ids.emailHint}
              onChange={(e) => setEmail(e.target.value)}
            />
            <span className="hint" id={ids.emailHint}>
              {t(`issuing.dialog.emailHint.${emailMode}`)}
            </span>
            {emailError && (
              <span className="field-error" id={ids.emailError}>
                {emailError}
              </span>
            )}
          </div>
        )}
        {offline && <Notice notice={{ kind: 'warning', text: t('issuing.dialog.offline') }} />}
        <p className="hint">{t('issuing.dialog.final')}</p>
        <div className="dialog-buttons">
          <button ref={confirmRef} type="submit" className="primary" disabled={busy} aria-keyshortcuts="Enter">
            {busy ? t('issuing.dialog.busy') : offline ? t('issuing.dialog.confirmOffline') : t('issuing.dialog.confirm')}
          </button>
          <button type="button" onClick={onClose} aria-keyshortcuts="Escape">
            {t('issuing.dialog.cancel')}
          </button>
          <span className="hint keys">{t('issuing.dialog.keys')}</span>
        </div>
      </form>
    </Dialog>
  );
}

import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueBuyer } from '../../../../common/calls/catalogues';
import type { Settings } from '../../../../common/calls/settings';
import type { CachedTemplate } from '../../../../common/calls/templates';
import { CallError } from '../../../../common/ipc/bridge';
import { validateDraft, type Problem } from '../../../../common/validation';
import { useAppStore } from '../../app/store';
import { bridge } from '../../bridge';
import { Autocomplete } from './Autocomplete';
import { flushSave } from './autosave';
import { IncrementalCompute } from './compute';
import { Field } from './Fields';
import { formatAmount } from './format';
import { LineGrid, scrollToLine } from './LineGrid';
import type { ComputeOptions, ComputedInvoice, InvoiceDraft } from './money';
import { searchBuyers } from './search';
import { useEditor, type HeaderField } from './store';

const OFFLINE_CODES = new Set(['api.offline', 'api.network', 'api.timeout', 'sandbox_stopped']);

function computeOptions(settings: Settings | undefined): ComputeOptions {
  if (!settings) return {};
  const w = settings.amountInWords;
  return { words: { zeroTens: w.zeroTens, thousand: w.thousand, useTu: w.useTu, chan: w.even } };
}

function messageOf(p: { message: string; messageVi: string }, lang: string): string {
  return lang === 'en' ? p.message : p.messageVi;
}

/** Is this a multi-rate invoice (several real VAT rates)? */
function isMultiRate(computed: ComputedInvoice): boolean {
  return computed.taxRates.filter((r) => r.vat !== null).length > 1;
}

function secretForBrowserHost(): string {
  try {
    return sessionStorage.getItem('einvoice.browserHostSecret') ?? '';
  } catch {
    return '';
  }
}

export function DraftEditor({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const draft = useEditor((s) => s.draft)!;
  const id = useEditor((s) => s.id)!;
  const meta = useEditor((s) => s.meta);
  const saveState = useEditor((s) => s.saveState);
  const saveError = useEditor((s) => s.saveError);
  const focusPath = useEditor((s) => s.focusPath);
  const serviceIssues = useEditor((s) => s.serviceIssues);
  const setField = useEditor((s) => s.setField);
  const setTicket = useEditor((s) => s.setTicket);
  const setWords = useEditor((s) => s.setWords);
  const setVatOverride = useEditor((s) => s.setVatOverride);
  const focus = useEditor((s) => s.focus);
  const setServiceIssues = useEditor((s) => s.setServiceIssues);
  const online = useAppStore((s) => s.online);

  const [settings, setSettings] = useState<Settings>();
  const [templates, setTemplates] = useState<CachedTemplate[]>([]);
  const [preview, setPreview] = useState<{ state: 'idle' | 'busy' | 'done' | 'error'; message?: string; offline?: boolean; href?: string }>({ state: 'idle' });

  useEffect(() => {
    bridge.call('settings.get', {}).then(setSettings, () => {});
    return bridge.on('settings.changed', setSettings);
  }, []);
  useEffect(() => {
    let live = true;
    const load = (refresh: boolean) =>
      bridge.call('templates.list', refresh ? { refresh } : {}).then(
        (r) => live && setTemplates(r.templates),
        () => {},
      );
    void load(false);
    const off = bridge.on('templates.changed', () => void load(false));
    return () => {
      live = false;
      off();
    };
  }, []);

  const options = useMemo(() => computeOptions(settings), [settings]);
  const engine = useRef(new IncrementalCompute());
  const computed = useMemo(() => engine.current.compute(draft, options), [draft, options]);
  const decimals = computed.rule.decimals;

  // Validation runs just after typing pauses (and off the keystroke's frame): typing paints
  // first, the problems at the fields and in the list follow ~120 ms later.
  const [validation, setValidation] = useState(() => validateDraft(draft, { ...options, computed }));
  useEffect(() => {
    const timer = setTimeout(() => {
      setValidation(validateDraft(draft, { ...options, computed: engine.current.compute(draft, options) }));
    }, 120);
    return () => clearTimeout(timer);
  }, [draft, options]);
  const multiRate = isMultiRate(computed);

  const activeTemplates = useMemo(
    () => templates.filter((tpl) => !tpl.inactive && tpl.ticket === draft.IsTicket),
    [templates, draft.IsTicket],
  );
  const chosen = activeTemplates.find((tpl) => tpl.series === draft.InvSeries);

  const problems: Problem[] = useMemo(() => {
    const list = [...validation.problems];
    if (multiRate && chosen && !chosen.isMoreVATRate) {
      list.unshift({
        path: 'InvSeries',
        code: 'series.multiRate',
        severity: 'error',
        message: `This invoice has several VAT rates: choose a multi-rate template (series ${chosen.series} has one rate).`,
        messageVi: `Hóa đơn có nhiều thuế suất: hãy chọn mẫu nhiều thuế suất (ký hiệu ${chosen.series} chỉ một thuế suất).`,
      });
    }
    if (draft.InvSeries && templates.length > 0 && !chosen) {
      list.unshift({
        path: 'InvSeries',
        code: 'series.notActive',
        severity: 'warning',
        message: `Series ${draft.InvSeries} is not an active template of this kind.`,
        messageVi: `Ký hiệu ${draft.InvSeries} không phải mẫu đang dùng của loại này.`,
      });
    }
    for (const [path, message] of Object.entries(serviceIssues)) {
      list.unshift({ path, code: 'service', severity: 'error', message, messageVi: message });
    }
    return list;
  }, [validation, multiRate, chosen, draft.InvSeries, templates.length, serviceIssues]);

  const byPath = useMemo(() => {
    const m = new Map<string, string>();
    for (const p of problems) if (!m.has(p.path)) m.set(p.path, messageOf(p, lang));
    return m;
  }, [problems, lang]);
  const lineProblems = useMemo(() => {
    const rows = new Map<number, Record<string, string>>();
    for (const [path, msg] of byPath) {
      const m = /^lines\[(\d+)\]\.(\w+)$/.exec(path);
      if (!m) continue;
      const i = Number(m[1]);
      const r = rows.get(i) ?? {};
      r[m[2]!] = msg;
      rows.set(i, r);
    }
    const out = new Map<number, string>();
    for (const [i, r] of rows) out.set(i, JSON.stringify(r));
    return out;
  }, [byPath]);

  // Focus a field by path (problem list, preview errors, new lines).
  useEffect(() => {
    if (!focusPath) return;
    focus(null);
    const find = () => document.querySelector<HTMLElement>(`[data-path="${CSS.escape(focusPath)}"]`);
    const go = (el: HTMLElement) => {
      el.focus();
      if (el instanceof HTMLInputElement) el.select();
    };
    const el = find();
    if (el) return go(el);
    // A line outside the rendered window: scroll it in, then focus it once rendered.
    const m = /^lines\[(\d+)\]/.exec(focusPath);
    if (!m) return;
    scrollToLine?.(Number(m[1]));
    let tries = 0;
    const retry = () => {
      const found = find();
      if (found) go(found);
      else if (++tries < 10) requestAnimationFrame(retry);
    };
    requestAnimationFrame(retry);
  }, [focusPath, focus]);

  const onField = useCallback(
    (path: string, value: string) => {
      setField(path as HeaderField, value);
      if (useEditor.getState().serviceIssues[path]) {
        const rest = { ...useEditor.getState().serviceIssues };
        delete rest[path];
        setServiceIssues(rest);
      }
    },
    [setField, setServiceIssues],
  );

  const pickBuyer = useCallback(
    (b: CatalogueBuyer) => {
      setField('BuyerLegalName', b.legalName);
      setField('BuyerTaxCode', b.taxCode);
      setField('BuyerAddress', b.address);
      if (b.contact) setField('BuyerFullName', b.contact);
      if (b.email) setField('BuyerEmail', b.email);
      if (b.phone) setField('BuyerPhoneNumber', b.phone);
      if (b.code) setField('BuyerCode', b.code);
      focus('BuyerAddress');
    },
    [setField, focus],
  );

  const runPreview = useCallback(async () => {
    setPreview({ state: 'busy' });
    setServiceIssues({});
    try {
      await flushSave();
      const result = await bridge.call('preview.run', { draftId: id });
      const opened = await bridge.call('preview.open', { previewId: result.previewId });
      let href: string | undefined;
      if (opened.path) {
        href = `${opened.path}?secret=${encodeURIComponent(secretForBrowserHost())}`;
        window.open(href, '_blank', 'noopener');
      }
      setPreview({ state: 'done', ...(href ? { href } : {}) });
    } catch (error) {
      const payload = error instanceof CallError ? error.payload : { code: 'internal', message: String(error), messageVi: String(error), issues: undefined };
      const offline = OFFLINE_CODES.has(payload.code);
      const issues: Record<string, string> = {};
      for (const issue of payload.issues ?? []) if (issue.path) issues[issue.path] = messageOf(issue, lang);
      setServiceIssues(issues);
      const first = Object.keys(issues)[0];
      if (first) focus(first);
      setPreview({ state: 'error', offline, message: offline ? t('drafts.preview.offline', { detail: messageOf(payload, lang) }) : messageOf(payload, lang) });
    }
  }, [id, lang, t, focus, setServiceIssues]);

  // Opening a draft puts the cursor in its first field.
  useEffect(() => {
    document.getElementById('f-kind')?.focus();
  }, [id]);

  // Keyboard: Ctrl+S saves (and teaches the catalogues), F8 previews.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code === 'KeyS' && (e.ctrlKey || e.metaKey) && !e.altKey) {
        e.preventDefault();
        void flushSave(true);
      } else if (e.key === 'F8') {
        e.preventDefault();
        void runPreview();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runPreview]);

  const headerSlice = useMemo(
    () => ({ IsTicket: draft.IsTicket, InvSeries: draft.InvSeries, InvDate: draft.InvDate, CurrencyCode: draft.CurrencyCode, ExchangeRate: draft.ExchangeRate, PaymentMethodName: draft.PaymentMethodName }),
    [draft.IsTicket, draft.InvSeries, draft.InvDate, draft.CurrencyCode, draft.ExchangeRate, draft.PaymentMethodName],
  );
  const buyerSlice = useMemo(
    () => ({
      BuyerTaxCode: draft.BuyerTaxCode,
      BuyerLegalName: draft.BuyerLegalName,
      BuyerAddress: draft.BuyerAddress,
      BuyerFullName: draft.BuyerFullName,
      BuyerEmail: draft.BuyerEmail,
      BuyerPhoneNumber: draft.BuyerPhoneNumber,
      BuyerCode: draft.BuyerCode,
    }),
    [draft.BuyerTaxCode, draft.BuyerLegalName, draft.BuyerAddress, draft.BuyerFullName, draft.BuyerEmail, draft.BuyerPhoneNumber, draft.BuyerCode],
  );
  const words = meta.wordsEdited ? meta.words : computed.words;
  const tot = computed.totals;
  const fmt = (v: typeof tot.TotalAmountOC) => formatAmount(v, decimals);

  return (
    <div className="editor">
      <div className="editor-bar">
        <button type="button" onClick={() => void flushSave(true).then(onClose)}>
          {t('drafts.editor.back')}
        </button>
        <p className={`save-state save-${saveState}`} role="status" data-testid="save-state">
          {t(`drafts.editor.save.${saveState}`)}
          {saveState === 'error' && saveError ? `: ${saveError}` : ''}
        </p>
        <button type="button" onClick={() => void flushSave(true)} aria-keyshortcuts="Control+S">
          {t('drafts.editor.saveNow')}
        </button>
        <button type="button" className="primary" onClick={() => void runPreview()} disabled={preview.state === 'busy'} aria-keyshortcuts="F8">
          {preview.state === 'busy' ? t('drafts.preview.busy') : t('drafts.preview.action')}
        </button>
      </div>
      <div aria-live="polite" className="preview-status">
        {preview.state === 'error' && (
          <p role="alert" className={preview.offline ? 'notice notice-offline' : 'notice notice-error'} data-testid="preview-error">
            {preview.message}
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

      <HeaderBlock draft={headerSlice} byPath={byPath} onField={onField} setTicket={setTicket} activeTemplates={activeTemplates} chosen={chosen} multiRate={multiRate} templateCount={templates.length} />

      <BuyerBlock draft={buyerSlice} byPath={byPath} onField={onField} pickBuyer={pickBuyer} />

      <section className="block" aria-labelledby="h-lines">
        <h2 id="h-lines">{t('drafts.grid.title')}</h2>
        <LineGrid lines={draft.lines} computed={computed.lines} decimals={decimals} problems={lineProblems} />
        {draft.lines.length === 0 && (
          <button type="button" onClick={() => focus(`lines[${useEditor.getState().addLine()}].ItemType`)}>
            {t('drafts.grid.addFirst')}
          </button>
        )}
      </section>

      <div className="editor-foot">
        <section className="block totals" aria-labelledby="h-totals">
          <h2 id="h-totals">{t('drafts.totals.title')}</h2>
          <dl>
            <dt>{t('drafts.totals.withoutVat')}</dt>
            <dd data-testid="total-without-vat">{fmt(tot.TotalAmountWithoutVATOC)}</dd>
            <dt>{t('drafts.totals.discount')}</dt>
            <dd data-testid="total-discount">{fmt(tot.TotalDiscountAmountOC)}</dd>
            <dt>{t('drafts.totals.vat')}</dt>
            <dd data-testid="total-vat">{fmt(tot.TotalVATAmountOC)}</dd>
            <dt>{t('drafts.totals.total')}</dt>
            <dd data-testid="total-amount" className="grand">
              {fmt(tot.TotalAmountOC)} {computed.currency}
            </dd>
          </dl>
          <table className="tax-rates" data-testid="tax-rate-info">
            <caption>{t('drafts.totals.taxRateInfo')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('drafts.totals.rate')}</th>
                <th scope="col">{t('drafts.totals.base')}</th>
                <th scope="col">{t('drafts.totals.rateVat')}</th>
                <th scope="col">{t('drafts.totals.override')}</th>
              </tr>
            </thead>
            <tbody>
              {computed.taxRates.map((r, i) => (
                <tr key={r.VATRateName}>
                  <th scope="row">{r.VATRateName}</th>
                  <td className="num">{fmt(r.AmountWithoutVATOC)}</td>
                  <td className="num">
                    {fmt(r.VATAmountOC)}
                    {r.edited ? ` (${t('drafts.totals.editedVat')})` : ''}
                  </td>
                  <td className="vat-override">
                    <input
                      data-path={`taxRates[${i}].VATAmountOC`}
                      inputMode="decimal"
                      aria-label={t('drafts.totals.overrideLabel', { rate: r.VATRateName })}
                      placeholder={t('drafts.totals.overrideAuto')}
                      value={draft.vatOverrides[r.VATRateName] ?? ''}
                      aria-invalid={byPath.get(`taxRates[${i}].VATAmountOC`) && r.overrideInvalid ? true : undefined}
                      onChange={(e) => setVatOverride(r.VATRateName, e.target.value.trim() === '' ? null : e.target.value)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="field words">
            <label htmlFor="f-words">
              {t('drafts.totals.words')}{' '}
              {meta.wordsEdited && (
                <span className="badge-edited" data-testid="words-edited">
                  {t('drafts.totals.wordsEdited')}
                </span>
              )}
            </label>
            <textarea
              id="f-words"
              data-path="words"
              data-testid="words"
              rows={2}
              value={words}
              aria-invalid={byPath.get('words') ? true : undefined}
              onChange={(e) => setWords(e.target.value)}
            />
            {meta.wordsEdited && (
              <button type="button" onClick={() => setWords(null)}>
                {t('drafts.totals.wordsAuto')}
              </button>
            )}
            {meta.wordsEdited && meta.words.trim() !== computed.words && <span className="hint">{t('drafts.totals.wordsDiffer', { words: computed.words })}</span>}
          </div>
        </section>

        <ProblemsBlock problems={problems} lang={lang} focus={focus} />
      </div>
    </div>
  );
}

type HeaderSlice = Pick<InvoiceDraft, 'IsTicket' | 'InvSeries' | 'InvDate' | 'CurrencyCode' | 'ExchangeRate' | 'PaymentMethodName'>;
type BuyerSlice = Pick<InvoiceDraft, 'BuyerTaxCode' | 'BuyerLegalName' | 'BuyerAddress' | 'BuyerFullName' | 'BuyerEmail' | 'BuyerPhoneNumber' | 'BuyerCode'>;
type OnField = (path: string, value: string) => void;

/** Header and buyer blocks re-render only when their own fields or problems change, not on a grid keystroke. */
const HeaderBlock = memo(function HeaderBlock({
  draft,
  byPath,
  onField,
  setTicket,
  activeTemplates,
  chosen,
  multiRate,
  templateCount,
}: {
  draft: HeaderSlice;
  byPath: Map<string, string>;
  onField: OnField;
  setTicket(isTicket: boolean): void;
  activeTemplates: CachedTemplate[];
  chosen: CachedTemplate | undefined;
  multiRate: boolean;
  templateCount: number;
}) {
  const { t } = useTranslation();
  const f = (path: keyof HeaderSlice) => ({ path, value: String(draft[path] ?? ''), problem: byPath.get(path), onChange: onField });
  return (
      <section className="block" aria-labelledby="h-header">
        <h2 id="h-header">{t('drafts.header.title')}</h2>
        <div className="fields">
          <div className="field">
            <label htmlFor="f-kind">{t('drafts.header.kind')}</label>
            <select id="f-kind" data-path="IsTicket" value={draft.IsTicket ? 'ticket' : 'invoice'} onChange={(e) => setTicket(e.target.value === 'ticket')}>
              <option value="invoice">{t('drafts.header.invoice')}</option>
              <option value="ticket">{t('drafts.header.ticket')}</option>
            </select>
          </div>
          <div className="field field-wide">
            <label htmlFor="f-InvSeries">{t('drafts.header.series')}</label>
            <select
              id="f-InvSeries"
              data-path="InvSeries"
              value={draft.InvSeries}
              aria-invalid={byPath.get('InvSeries') ? true : undefined}
              aria-describedby={byPath.get('InvSeries') ? 'f-InvSeries-err' : 'f-InvSeries-hint'}
              onChange={(e) => onField('InvSeries', e.target.value)}
            >
              <option value="">{t('drafts.header.seriesNone')}</option>
              {draft.InvSeries && !chosen && <option value={draft.InvSeries}>{draft.InvSeries}</option>}
              {activeTemplates.map((tpl) => (
                <option key={`${tpl.id}-${tpl.withCode}`} value={tpl.series} disabled={multiRate && !tpl.isMoreVATRate}>
                  {`${tpl.series} — ${tpl.name}${tpl.isMoreVATRate ? ` (${t('drafts.header.multiRate')})` : ''}`}
                </option>
              ))}
            </select>
            <span className="hint" id="f-InvSeries-hint">
              {templateCount === 0 ? t('drafts.header.noTemplates') : multiRate ? t('drafts.header.multiRateNeeded') : ''}
            </span>
            {byPath.get('InvSeries') && (
              <span className="field-error" id="f-InvSeries-err">
                {byPath.get('InvSeries')}
              </span>
            )}
          </div>
          <Field {...f('InvDate')} type="date" label={t('drafts.header.date')} />
          <Field {...f('CurrencyCode')} label={t('drafts.header.currency')} list="currency-choices" />
          <Field {...f('ExchangeRate')} label={t('drafts.header.exchangeRate')} inputMode="decimal" />
          <Field {...f('PaymentMethodName')} label={t('drafts.header.payment')} list="payment-choices" />
        </div>
        <datalist id="currency-choices">
          {['VND', 'USD', 'EUR', 'JPY', 'CNY'].map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <datalist id="payment-choices">
          {['TM', 'CK', 'TM/CK'].map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </section>
  );
});

const BuyerBlock = memo(function BuyerBlock({
  draft,
  byPath,
  onField,
  pickBuyer,
}: {
  draft: BuyerSlice;
  byPath: Map<string, string>;
  onField: OnField;
  pickBuyer(b: CatalogueBuyer): void;
}) {
  const { t } = useTranslation();
  const f = (path: keyof BuyerSlice) => ({ path, value: String(draft[path] ?? ''), problem: byPath.get(path), onChange: onField });
  return (
      <section className="block" aria-labelledby="h-buyer">
        <h2 id="h-buyer">{t('drafts.buyer.title')}</h2>
        <div className="fields">
          <div className="field">
            <label htmlFor="f-BuyerTaxCode">{t('drafts.buyer.taxCode')}</label>
            <Autocomplete<CatalogueBuyer>
              id="f-BuyerTaxCode"
              data-path="BuyerTaxCode"
              inputMode="numeric"
              value={draft.BuyerTaxCode}
              aria-invalid={byPath.get('BuyerTaxCode') ? true : undefined}
              aria-describedby={byPath.get('BuyerTaxCode') ? 'f-BuyerTaxCode-err' : undefined}
              onChange={(v) => onField('BuyerTaxCode', v)}
              search={searchBuyers}
              onPick={pickBuyer}
              listLabel={t('drafts.buyer.suggestions')}
            />
            {byPath.get('BuyerTaxCode') && (
              <span className="field-error" id="f-BuyerTaxCode-err">
                {byPath.get('BuyerTaxCode')}
              </span>
            )}
          </div>
          <div className="field field-wide">
            <label htmlFor="f-BuyerLegalName">{t('drafts.buyer.legalName')}</label>
            <Autocomplete<CatalogueBuyer>
              id="f-BuyerLegalName"
              data-path="BuyerLegalName"
              value={draft.BuyerLegalName}
              aria-invalid={byPath.get('BuyerLegalName') ? true : undefined}
              aria-describedby={byPath.get('BuyerLegalName') ? 'f-BuyerLegalName-err' : undefined}
              onChange={(v) => onField('BuyerLegalName', v)}
              search={searchBuyers}
              onPick={pickBuyer}
              listLabel={t('drafts.buyer.suggestions')}
            />
            {byPath.get('BuyerLegalName') && (
              <span className="field-error" id="f-BuyerLegalName-err">
                {byPath.get('BuyerLegalName')}
              </span>
            )}
          </div>
          <Field {...f('BuyerAddress')} label={t('drafts.buyer.address')} className="field-wide" />
          <Field {...f('BuyerFullName')} label={t('drafts.buyer.contact')} />
          <Field {...f('BuyerEmail')} type="email" label={t('drafts.buyer.email')} />
          <Field {...f('BuyerPhoneNumber')} type="tel" label={t('drafts.buyer.phone')} />
          <Field {...f('BuyerCode')} label={t('drafts.buyer.code')} />
        </div>
      </section>
  );
});

const ProblemsBlock = memo(function ProblemsBlock({ problems, lang, focus }: { problems: Problem[]; lang: string; focus(path: string | null): void }) {
  const { t } = useTranslation();
  return (
        <section className="block problems" aria-labelledby="h-problems">
          <h2 id="h-problems">
            {t('drafts.problems.title', { errors: problems.filter((p) => p.severity === 'error').length, warnings: problems.filter((p) => p.severity === 'warning').length })}
          </h2>
          {problems.length === 0 ? (
            <p>{t('drafts.problems.none')}</p>
          ) : (
            <ul data-testid="problem-list">
              {problems.map((p, i) => (
                <li key={`${p.path}-${p.code}-${i}`} className={`problem problem-${p.severity}`}>
                  <button type="button" className="link" onClick={() => focus(p.path)}>
                    {messageOf(p, lang)}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p className="hint">{t('drafts.problems.neverBlocks')}</p>
        </section>
  );
});

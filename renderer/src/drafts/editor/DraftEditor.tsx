import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CatalogueBuyer } from '../../../../common/calls/catalogues';
import type { Settings } from '../../../../common/calls/settings';
import type { CachedTemplate } from '../../../../common/calls/templates';
import { activeTemplatesFor } from '../../../../common/rules';
import { invoiceKindOfSeries, signTypeFor } from '../../../../common/rules/sign-type';
import { useAppStore } from '../../app/store';
import { useLive } from '../../app/useLive';
import { useLanguage, useWords } from '../../i18n/useWords';
import { formatTotal } from '../../issuing/words';
import { flushSave } from './autosave';
import { Fig } from './Fig';
import { BuyerBlock } from './BuyerBlock';
import { CorrectionBlock } from './CorrectionBlock';
import { IncrementalCompute } from './money';
import { HeaderBlock } from './HeaderBlock';
import { IssueBanner } from './IssueBanner';
import { IssueDialog } from './IssueDialog';
import { LineGrid, newLineFocus, scrollToLine } from './LineGrid';
import { buyerFieldsFrom, computeOptionsFromSettings, dotStyleFor } from './money';
import { PreviewStatus } from './PreviewStatus';
import { ProblemsBlock } from './ProblemsBlock';
import { SaveState } from './SaveState';
import { useEditor, type HeaderField } from './store';
import { TotalsBlock } from './TotalsBlock';
import { useDraftProblems } from './useDraftProblems';
import { useIssue } from './useIssue';
import { usePreview } from './usePreview';

function useSettings(): Settings | undefined {
  return useLive('settings.get', {}, { 'settings.changed': (next) => next }).data;
}

const NO_TEMPLATES: CachedTemplate[] = [];
function useTemplates(): CachedTemplate[] {
  return useLive('templates.list', {}, { 'templates.changed': 'reload' }).data?.templates ?? NO_TEMPLATES;
}

/** Focuses a field by path (problem list, preview errors, new lines), scrolling a far line in first. */
function useFocusPath(): void {
  const focusPath = useEditor((s) => s.focusPath);
  const focus = useEditor((s) => s.focus);
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
}

/** The editor's own words: it is drawn again on every keystroke. */
const EDITOR_WORDS = [
  'drafts.editor.back',
  'drafts.totals.total',
  'drafts.editor.saveNow',
  'drafts.preview.busy',
  'drafts.preview.action',
  'issuing.dialog.action',
  'drafts.grid.title',
  'drafts.grid.addFirst',
] as const;

/** The total payable in the editor's bar. */
const BarTotal = memo(function BarTotal({ label, text }: { label: string; text: string }) {
  return (
    <p className="bar-total" data-testid="bar-total">
      {label}{' '}
      <strong>
        <Fig text={text} />
      </strong>
    </p>
  );
});

export function DraftEditor({ onClose }: { onClose(): void }) {
  const w = useWords(EDITOR_WORDS);
  const lang = useLanguage();
  const draft = useEditor((s) => s.draft)!;
  const id = useEditor((s) => s.id)!;
  const setField = useEditor((s) => s.setField);
  const setTicket = useEditor((s) => s.setTicket);
  const focus = useEditor((s) => s.focus);
  const issue = useEditor((s) => s.issue);
  const online = useAppStore((s) => s.online);
  const [issuing, setIssuing] = useState(false);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);

  const settings = useSettings();
  const templates = useTemplates();
  const options = useMemo(() => computeOptionsFromSettings(settings), [settings]);
  const engine = useRef(new IncrementalCompute());
  const computed = useMemo(() => engine.current.compute(draft, options), [draft, options]);
  const problems = useDraftProblems({ draft, options, computed, engine: engine.current, templates, lang });
  const issued = issue?.state === 'issued';
  const { preview, run } = usePreview(id, problems.errorsNow, !issued);
  const issueAttempt = useIssue(id);
  useFocusPath();
  // A refusal naming a field puts the cursor there once the dialog has gone.
  useEffect(() => {
    if (issuing || !focusAfter) return;
    focus(focusAfter);
    setFocusAfter(null);
  }, [issuing, focusAfter, focus]);

  const activeTemplates = useMemo(() => activeTemplatesFor(templates, draft.IsTicket), [templates, draft.IsTicket]);
  const chosen = activeTemplates.find((tpl) => tpl.series === draft.InvSeries);

  const onField = useCallback((path: string, value: string) => setField(path as HeaderField, value), [setField]);

  const pickBuyer = useCallback(
    (b: CatalogueBuyer) => {
      for (const [field, value] of Object.entries(buyerFieldsFrom(b))) setField(field as HeaderField, value);
      focus('BuyerAddress');
    },
    [setField, focus],
  );

  // Opening a draft puts the cursor in its first field.
  useEffect(() => {
    if (!useEditor.getState().issue) document.getElementById('f-kind')?.focus();
  }, [id]);

  // Ctrl+S saves (and teaches the catalogues); F8 is the preview hook's.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code === 'KeyS' && (e.ctrlKey || e.metaKey) && !e.altKey) {
        e.preventDefault();
        void flushSave(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const headerSlice = useMemo(
    () => ({
      IsTicket: draft.IsTicket,
      InvSeries: draft.InvSeries,
      InvDate: draft.InvDate,
      CurrencyCode: draft.CurrencyCode,
      ExchangeRate: draft.ExchangeRate,
      PaymentMethodName: draft.PaymentMethodName,
    }),
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

  // A refused draft is not offered for issuing: its errors are said first.
  const { refuse, clear } = issueAttempt;
  const { errorsNow } = problems;
  const startIssue = useCallback(() => {
    const errors = errorsNow();
    if (errors.length > 0) {
      refuse(errors);
      focus(errors[0]!.path);
      return;
    }
    clear();
    setIssuing(true);
  }, [errorsNow, refuse, clear, focus]);
  // The bar's buttons stay the same while typing: built once, so a keystroke leaves them alone.
  const barStart = useMemo(
    () => (
      <>
        <button type="button" onClick={() => void flushSave(true).then(onClose)}>
          {w['drafts.editor.back']}
        </button>
        <SaveState />
      </>
    ),
    [w, onClose],
  );
  const previewBusy = preview.state === 'busy';
  const barActions = useMemo(
    () => (
      <>
        {!issue && (
          <button type="button" onClick={() => void flushSave(true)} aria-keyshortcuts="Control+S">
            {w['drafts.editor.saveNow']}
          </button>
        )}
        {!issued && (
          <button type="button" onClick={() => void run()} disabled={previewBusy} aria-keyshortcuts="F8">
            {previewBusy ? w['drafts.preview.busy'] : w['drafts.preview.action']}
          </button>
        )}
        {!issue && (
          <button type="button" className="primary" onClick={startIssue}>
            {w['issuing.dialog.action']}
          </button>
        )}
      </>
    ),
    [w, issue, issued, previewBusy, run, startIssue],
  );

  return (
    <div className="editor">
      <div className="editor-bar">
        {barStart}
        {/* The figure the cashier reads out, in sight however far down the lines go. */}
        <BarTotal label={w['drafts.totals.total']} text={formatTotal(computed.totals.TotalAmountOC.toFixed(computed.rule.decimals), computed.currency)} />
        {barActions}
      </div>
      {issue && <IssueBanner key={issue.id} issue={issue} />}
      {!issue && issueAttempt.attempt.state === 'error' && (
        <p role="alert" className="notice notice-error" data-testid="issue-error">
          {issueAttempt.attempt.message}
        </p>
      )}
      {!issued && <PreviewStatus preview={preview} run={run} />}
      {issuing && !issue && (
        <IssueDialog
          summary={{
            series: draft.InvSeries,
            date: draft.InvDate,
            buyer: draft.BuyerLegalName.trim() || draft.BuyerFullName.trim(),
            total: formatTotal(computed.totals.TotalAmountOC.toFixed(computed.rule.decimals), computed.currency),
            signType: signTypeFor(settings?.issuing.signType ?? 2, invoiceKindOfSeries(draft.InvSeries)),
            buyerEmail: draft.BuyerEmail,
          }}
          emailMode={settings?.issuing.email ?? 'queue'}
          online={online}
          onQueue={async (emails) => {
            const result = await issueAttempt.queue(emails);
            if (!result.ok && result.field) setFocusAfter(result.field);
            return result;
          }}
          onClose={() => setIssuing(false)}
        />
      )}

      <fieldset className="editor-body" disabled={issue !== null}>
        {draft.correction && <CorrectionBlock correction={draft.correction} />}
        <HeaderBlock
          draft={headerSlice}
          byPath={problems.byPath}
          codes={problems.codes}
          onField={onField}
          setTicket={setTicket}
          activeTemplates={activeTemplates}
          chosen={chosen}
          multiRate={problems.multiRate}
          templateCount={templates.length}
        />

        <BuyerBlock draft={buyerSlice} byPath={problems.byPath} codes={problems.codes} onField={onField} pickBuyer={pickBuyer} />

        <section className="block" aria-labelledby="h-lines">
          <h2 id="h-lines">{w['drafts.grid.title']}</h2>
          <LineGrid
            lines={draft.lines}
            computed={computed.lines}
            decimals={computed.rule.decimals}
            moneyDot={dotStyleFor('amount', computed.currency)}
            problems={problems.lineProblems}
          />
          {draft.lines.length === 0 && (
            <button type="button" onClick={() => focus(newLineFocus(useEditor.getState().addLine()))}>
              {w['drafts.grid.addFirst']}
            </button>
          )}
        </section>

        <div className="editor-foot">
          <TotalsBlock computed={computed} vatOverrides={draft.vatOverrides} byPath={problems.byPath} />
          <ProblemsBlock problems={problems.shown} lang={lang} focus={focus} />
        </div>
      </fieldset>
    </div>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CachedTemplate } from '../../../../common/calls/templates';
import { isMultiRate, sameProblems, seriesChoiceProblems } from '../../../../common/rules';
import { LineProblemCache, validateDraft, type Problem } from '../../../../common/validation';
import type { IncrementalCompute } from './money';
import type { ComputeOptions, ComputedInvoice, InvoiceDraft } from './money';
import { whenIdle } from '../../app/idle';
import { useEditor } from './store';

export function messageOf(p: { message: string; messageVi: string }, lang: string): string {
  return lang === 'en' ? p.message : p.messageVi;
}

export interface DraftProblems {
  /** Every problem: the draft's own check, the series rule and what the service said. */
  all: Problem[];
  /** What the screen shows now (a line just added keeps its problems until it is left). */
  shown: Problem[];
  /** First shown message per path, and the service's code where it gave one. */
  byPath: Map<string, string>;
  codes: Map<string, string>;
  /** Per line: JSON of {field: message}, so a row's memo compares by value. */
  lineProblems: Map<number, string>;
  multiRate: boolean;
  /** The errors of the draft as it is this instant (not waiting for the debounce): preview asks. */
  errorsNow(): Problem[];
}

/**
 * The draft's problems. Validation runs just after typing pauses, in idle time after the frame:
 * typing paints first, the problems at the fields and in the list follow ~120 ms later.
 */
export function useDraftProblems(input: {
  draft: InvoiceDraft;
  options: ComputeOptions;
  computed: ComputedInvoice;
  engine: IncrementalCompute;
  templates: CachedTemplate[];
  lang: string;
}): DraftProblems {
  const { draft, options, computed, engine, templates, lang } = input;
  const serviceIssues = useEditor((s) => s.serviceIssues);
  const freshLine = useEditor((s) => s.freshLine);
  const editingPath = useEditor((s) => s.editingPath);
  // Each line's own problems are kept per line object: a pause after typing re-checks the changed line.
  const [lineCache] = useState(() => new LineProblemCache());
  const [validation, setValidation] = useState(() => validateDraft(draft, { ...options, computed, lineCache }));
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const timer = setTimeout(() => {
      cancelIdle = whenIdle(() => {
        const next = validateDraft(draft, { ...options, computed: engine.compute(draft, options), lineCache });
        // Nothing new found: the editor is not drawn again (with a long draft, a whole render in every pause).
        setValidation((prev) => (sameProblems(prev.problems, next.problems) ? prev : next));
      }, 400);
    }, 120);
    return () => {
      clearTimeout(timer);
      cancelIdle?.();
    };
  }, [draft, options, engine, lineCache]);
  const multiRate = isMultiRate(computed.taxRates);

  const all = useMemo(() => {
    const list = [...seriesChoiceProblems({ series: draft.InvSeries, isTicket: draft.IsTicket, multiRate, templates }), ...validation.problems];
    // A refused issue names the problems the draft's own check finds too: each is listed once.
    const own = new Set(list.map((p) => `${p.path}\u0000${messageOf(p, lang)}`));
    for (const [path, issue] of Object.entries(serviceIssues)) {
      if (own.has(`${path}\u0000${issue.message}`)) continue;
      list.unshift({ path, code: issue.code ?? 'service', severity: 'error', message: issue.message, messageVi: issue.message });
    }
    return list;
  }, [validation, multiRate, draft.InvSeries, draft.IsTicket, templates, serviceIssues, lang]);

  const shown = useMemo(() => {
    const prefix = freshLine === null ? null : `lines[${freshLine}].`;
    return all.filter((p) => {
      // A number still being typed is judged once its cell is left.
      if (p.path === editingPath && p.code.startsWith('number.')) return false;
      // What the cashier typed and the parser refused is said at once; the rest of a new line waits.
      return prefix === null || !p.path.startsWith(prefix) || p.code.startsWith('number.');
    });
  }, [all, freshLine, editingPath]);

  const { byPath, codes } = useMemo(() => {
    const m = new Map<string, string>();
    const c = new Map<string, string>();
    for (const p of shown) {
      if (m.has(p.path)) continue;
      m.set(p.path, messageOf(p, lang));
      const issue = serviceIssues[p.path];
      if (issue?.code) c.set(p.path, issue.code);
    }
    return { byPath: m, codes: c };
  }, [shown, lang, serviceIssues]);

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

  const errorsNow = useCallback(() => {
    const current = useEditor.getState().draft;
    if (!current) return [];
    const c = engine.compute(current, options);
    const v = validateDraft(current, { ...options, computed: c, lineCache });
    const series = seriesChoiceProblems({ series: current.InvSeries, isTicket: current.IsTicket, multiRate: isMultiRate(c.taxRates), templates });
    return [...series, ...v.problems].filter((p) => p.severity === 'error');
  }, [engine, options, templates, lineCache]);

  return { all, shown, byPath, codes, lineProblems, multiRate, errorsNow };
}

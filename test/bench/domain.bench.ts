/**
 * Keystroke recompute cost: computeInvoice (lines, TaxRateInfo, four totals, amount in words)
 * for invoices of 1, 20, 200 and 1 000 lines; and the issuing form (issuingForm: digits,
 * converted amounts, SortOrder) for the same invoices, which must grow linearly too. Each sample changes one quantity first, as a
 * cashier's keystroke would. Prints medians, the 1000/20 ratio (≈50 means linear growth) and
 * the per-line cost ratio (≈1 means a flat per-line cost). Only a generous sanity bound is
 * asserted; the figures are for the report.
 */
import { describe, expect, it } from 'vitest';
import { computeInvoice, emptyDraft, issuingForm, type DraftLine, type InvoiceDraft } from '../../common/money';
import { validateDraft } from '../../common/validation';
import type { ItemType } from '../../common/model';
import { median } from '../support/stats';

const RATES = ['10%', '8%', '5%', '0%', 'KCT', 'KHAC:3.5%'];
const TYPES: ItemType[] = [1, 1, 1, 1, 1, 5, 2, 3, 4];

function makeDraft(n: number): InvoiceDraft {
  const lines: DraftLine[] = [];
  for (let i = 0; i < n; i++) {
    const t = TYPES[i % TYPES.length]!;
    lines.push({
      ItemType: t,
      ItemCode: `HH${i}`,
      ItemName: `Hàng hóa số ${i}`,
      UnitName: 'Cái',
      Quantity: t === 4 ? '' : `${(i % 17) + 1}.${i % 3}`,
      UnitPrice: t === 4 ? '' : `${((i * 7919) % 2_000_000) + 1000}.${i % 100}`,
      DiscountRate: i % 4 === 0 ? '5' : '',
      DiscountAmountOC: i % 6 === 1 ? '1500' : '',
      discountBy: i % 6 === 1 ? 'amount' : 'rate',
      VATRateName: t === 4 ? '' : RATES[i % RATES.length]!,
    });
  }
  return emptyDraft({ RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', InvDate: '2025-06-15', InvSeries: '1C25TAA', lines });
}

function makeUsdDraft(n: number): InvoiceDraft {
  return { ...makeDraft(n), CurrencyCode: 'USD', ExchangeRate: '25150.5' };
}

/** Calls per timed sample so that one sample lasts ≥ ~8 ms (timer resolution, GC pauses spread out). */
function batchFor(fn: (k: number) => void): number {
  for (let i = 0; i < 30; i++) fn(i); // warm-up (JIT)
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn(i);
    if (performance.now() - t0 >= 8 || batch >= 1 << 16) return batch;
    batch *= 2;
  }
}

/**
 * Samples every case round-robin (case A, B, C, D, A, B, …) so that load from other processes
 * on this shared machine hits all sizes alike; returns median and best ms per call per case.
 */
function measureInterleaved(cases: ((k: number) => void)[], rounds: number): { median: number; best: number; cpu: number }[] {
  const batches = cases.map(batchFor);
  const times: number[][] = cases.map(() => []);
  const cpu: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach((fn, c) => {
      const b = batches[c]!;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < b; i++) fn(r * b + i);
      times[c]!.push((performance.now() - t0) / b);
      const used = process.cpuUsage(c0);
      cpu[c]!.push((used.user + used.system) / 1000 / b);
    });
  }
  return times.map((t, c) => ({ median: median(t), best: Math.min(...t), cpu: median(cpu[c]!) }));
}

describe('domain recompute benchmark', () => {
  it('computeInvoice + words grows linearly with the number of lines', () => {
    const sizes = [1, 20, 200, 1000];
    let sink = 0;
    const drafts = sizes.map(makeDraft);
    const compute = measureInterleaved(
      drafts.map((draft) => (k: number) => {
        // a keystroke: the cashier edits one quantity, then everything is recomputed
        draft.lines[k % draft.lines.length]!.Quantity = String((k % 9) + 1);
        sink += computeInvoice(draft).words.length;
      }),
      41,
    );
    const validate = measureInterleaved(
      drafts.map((draft) => () => {
        sink += validateDraft(draft, { now: new Date('2025-06-15T03:00:00Z') }).problems.length;
      }),
      21,
    );
    // The issuing form of a USD invoice, with the shop's digits (typed figures rounded, converted amounts).
    const digits = {
      QuantityDecimalDigits: 2,
      UnitPriceOCDecimalDigits: 2,
      AmountOCDecimalDigits: 2,
      AmountDecimalDigits: 0,
      CoefficientDecimalDigits: 2,
      ExchangRateDecimalDigits: 2,
    };
    const usd = sizes.map(makeUsdDraft);
    const issuing = measureInterleaved(
      usd.map((draft) => (k: number) => {
        draft.lines[k % draft.lines.length]!.Quantity = String((k % 9) + 1);
        sink += issuingForm(draft, { digits, template: { IsSendSummary: false } }).data.OriginalInvoiceDetail.length;
      }),
      21,
    );
    const results: Record<number, { compute: number; best: number; cpu: number; validate: number; issuing: number; issuingBest: number; issuingCpu: number }> =
      {};
    sizes.forEach(
      (n, i) =>
        (results[n] = {
          compute: compute[i]!.median,
          best: compute[i]!.best,
          cpu: compute[i]!.cpu,
          validate: validate[i]!.median,
          issuing: issuing[i]!.median,
          issuingBest: issuing[i]!.best,
          issuingCpu: issuing[i]!.cpu,
        }),
    );
    const r = (n: number) => results[n]!;
    const ratio = r(1000).compute / r(20).compute;
    const perLine = r(1000).compute / 1000 / (r(20).compute / 20);
    const ratioBest = r(1000).best / r(20).best;
    const ratioCpu = r(1000).cpu / r(20).cpu;
    console.log('\n[domain.bench] median time per recompute (computeInvoice: lines + TaxRateInfo + totals + words)');
    for (const n of sizes) {
      console.log(
        `  ${String(n).padStart(5)} lines: median ${r(n).compute.toFixed(4)} ms (${((r(n).compute / n) * 1000).toFixed(2)} µs/line), best ${r(n).best.toFixed(4)} ms, CPU-time median ${r(n).cpu.toFixed(4)} ms; validateDraft median ${r(n).validate.toFixed(4)} ms`,
      );
    }
    console.log(`  ratio 1000-line / 20-line: ${ratio.toFixed(1)} (≈50 for linear growth)`);
    console.log(`  ratio 1000-line / 20-line on best samples: ${ratioBest.toFixed(1)}; on CPU-time medians: ${ratioCpu.toFixed(1)}`);
    console.log(`  per-line cost ratio (1000 vs 20): ${perLine.toFixed(2)} (≈1 for a flat per-line cost)`);
    console.log(`  200-line recompute: ${r(200).compute.toFixed(3)} ms = ${((r(200).compute / 16.7) * 100).toFixed(1)} % of a 60 Hz frame`);
    const issuingRatio = r(1000).issuing / r(20).issuing;
    const issuingRatioCpu = r(1000).issuingCpu / r(20).issuingCpu;
    const issuingRatioBest = r(1000).issuingBest / r(20).issuingBest;
    console.log('[domain.bench] issuing form (issuingForm, USD, shop digits: rounding, compute, converted amounts, SortOrder)');
    for (const n of sizes) {
      console.log(
        `  ${String(n).padStart(5)} lines: median ${r(n).issuing.toFixed(4)} ms (${((r(n).issuing / n) * 1000).toFixed(2)} µs/line), CPU-time median ${r(n).issuingCpu.toFixed(4)} ms; ${(r(n).issuing / r(n).compute).toFixed(2)}× the recompute`,
      );
    }
    console.log(
      `  ratio 1000-line / 20-line: ${issuingRatio.toFixed(1)} (≈50 for linear growth); on best samples: ${issuingRatioBest.toFixed(1)}; on CPU-time medians: ${issuingRatioCpu.toFixed(1)}`,
    );
    expect(sink).toBeGreaterThan(0);
    // Generous sanity bounds only (shared 2-core machine, so wall time is noisy): a 200-line
    // recompute within one 60 Hz frame, and a per-line cost (CPU time) that does not grow 5-fold
    // from 20 to 1 000 lines, which quadratic work would.
    expect(r(200).compute).toBeLessThan(16.7);
    expect(ratioCpu / 50).toBeLessThan(5);
    expect(issuingRatioCpu / 50).toBeLessThan(5);
  });
});

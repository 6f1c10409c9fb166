import { describe, expect, it } from 'vitest';
import { recordHardening } from '../../support/hardening-report';
import { cliSandbox, jsonItems, spawnCli } from '../emails/cli-support';
import { checkAgainstSandbox, invoiceData, openQueueSide, SERIES, type IssueItem } from './cli-support';

// The sandbox holds each issue request 400 ms before answering: two requests on one series at
// once would be seen (InvoiceNumberNotCotinuous, counted by overlaps()).
const ctx = cliSandbox('einvoice-issuing-two-', { seed: 13, invoiceCount: 300, quirks: { issueProcessingMs: 400 }, faults: { issue: { latencyMs: 50 } } });

const PER_SERIES = 22;

describe('two einvoice issue-queue flush processes on one database', () => {
  it(`${3 * PER_SERIES} invoices on 3 series: each issued once, and no two requests of one series ever overlap`, async () => {
    const side = openQueueSide(`${ctx.dir}/data`);
    try {
      const series = [SERIES.withCode, SERIES.withoutCode, SERIES.cashRegister];
      const cert = ctx.sb.certificate().CertificateSN;
      // Half with the certificate named, half without (the only one is taken): a request carries one
      // kind, so each series needs two requests and the processes compete for the second.
      for (let i = 0; i < 3 * PER_SERIES; i++) side.queue(invoiceData({ InvSeries: series[i % 3]! }), { certificateSN: i % 2 === 0 ? cert : null });
      const args = ['issue-queue', 'flush', '--json', ...ctx.api()];
      const a = spawnCli(args, ctx.env(), ctx.dir);
      const b = spawnCli(args, ctx.env(), ctx.dir);
      const [ra, rb] = await Promise.all([a.done, b.done]);
      for (const r of [ra, rb]) {
        expect(r.code, r.stderr).toBe(0);
        const out = jsonItems<IssueItem>(r.stdout);
        expect(out).toHaveLength(3 * PER_SERIES);
        expect(out.every((i) => i.state === 'issued')).toBe(true);
      }
      const { doubleIssues, rows } = checkAgainstSandbox(ctx.sb, side, 3 * PER_SERIES);
      expect(rows.every((r) => r.state === 'issued')).toBe(true);
      expect(ctx.sb.overlaps()).toBe(0);
      expect(side.duplicateAnswers()).toBe(0);
      // Per series the numbers follow one another: nothing was skipped or given twice.
      for (const s of series) {
        const numbers = rows
          .filter((r) => r.invSeries === s)
          .map((r) => Number(r.invNo))
          .sort((x, y) => x - y);
        expect(new Set(numbers).size).toBe(PER_SERIES);
        expect(numbers[PER_SERIES - 1]! - numbers[0]!).toBe(PER_SERIES - 1);
      }
      const requests = ctx.sb.requests({ op: 'issue' }).length;
      expect(requests).toBeGreaterThanOrEqual(6);
      recordHardening('crash-issuing-two-processes', {
        issuingTwoProcessInvoices: rows.length,
        issuingTwoProcessRequests: requests,
        issuingDoubleIssues: doubleIssues,
        issuingOverlaps: ctx.sb.overlaps(),
      });
      console.log(`two flushers: ${rows.length} invoices, ${requests} issue requests, ${doubleIssues} double issues, ${ctx.sb.overlaps()} overlaps`);
    } finally {
      side.close();
    }
  }, 300_000);
});

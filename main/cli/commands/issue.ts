import fs from 'node:fs';
import path from 'node:path';
import type { IssueEntry } from '../../../common/calls/issuing';
import { AppError, issuesFromZod } from '../../../common/errors';
import { InvoiceDataSchema, type InvoiceData } from '../../../common/model';
import { SIGN_TYPES, type SignType } from '../../../common/model/issuing';
import { parseSeries } from '../../../common/rules/series';
import { flag, parseWait, text } from '../options';
import { ExitCode, UsageError, type CliCommand, type CommandContext } from '../registry';
import type { CliServices } from '../services';
import { exitFor, itemJson, itemsText, openIssuing, runQueue, type IssueItem } from './issue-run';

/** One thing to issue: an InvoiceData from a file, or a draft of the data folder. */
interface Input {
  label: string;
  data?: InvoiceData;
  draftId?: string;
}

function usage(en: string, vi: string): UsageError {
  return new UsageError({ en, vi });
}

/** Reads FILE as one InvoiceData; a refusal names the file and the first wrong fields. */
function readInvoice(cwd: string, name: string): InvoiceData {
  const file = path.resolve(cwd, name);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    if (error instanceof SyntaxError) throw usage(`${name} is not valid JSON (${why}).`, `Tệp ${name} không phải JSON hợp lệ (${why}).`);
    throw usage(`Cannot read ${name} (${why}).`, `Không đọc được tệp ${name} (${why}).`);
  }
  const parsed = InvoiceDataSchema.safeParse(raw);
  // RefID is what makes running the same file twice safe: without one, each run would be a new sale.
  if (parsed.success && !parsed.data.RefID.trim()) {
    throw usage(
      `${name}: RefID is empty; give each invoice its own RefID so that running the command again never issues it twice.`,
      `${name}: RefID đang để trống; hãy đặt RefID riêng cho mỗi hóa đơn để chạy lại lệnh không phát hành trùng.`,
    );
  }
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error).slice(0, 5);
  throw new AppError(
    'usage',
    {
      en: `${name} is not an InvoiceData: ${issues.map((i) => i.message).join('; ')}`,
      vi: `Tệp ${name} không phải InvoiceData hợp lệ: ${issues.map((i) => i.messageVi).join('; ')}`,
    },
    { issues: issues.map((i) => ({ ...i, path: `${name}: ${i.path || '(root)'}` })) },
  );
}

function draftIds(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list
    .flatMap((v) => String(v).split(/[,\s]+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The series' templates must be in the cache for the issue check: fetched when the cache of that
 * year is empty or lacks a series (a failure with an empty cache ends the command: 3 or 4).
 */
async function ensureTemplates(ctx: CommandContext, cli: CliServices, inputs: readonly Input[]): Promise<void> {
  const { templates, drafts } = cli.services.drafting;
  const byYear = new Map<number, Set<string>>();
  for (const input of inputs) {
    const d = input.data ?? drafts.get(input.draftId!).draft;
    const s = parseSeries(d.InvSeries);
    const year = s.ok ? s.year : Number(d.InvDate.slice(0, 4));
    byYear.set(year, (byYear.get(year) ?? new Set()).add(s.ok ? s.normalised : d.InvSeries.trim()));
  }
  for (const [year, wanted] of byYear) {
    const cached = templates.cached(cli.profile.id, year);
    const known = new Set(cached.templates.map((t) => parseSeries(t.series)).flatMap((p) => (p.ok ? [p.normalised] : [])));
    if (cached.fetchedAt && [...wanted].every((s) => known.has(s))) continue;
    try {
      await templates.refresh(year);
    } catch (error) {
      if (!cached.fetchedAt) throw error;
      ctx.progress({
        en: `The ${year} templates could not be refreshed; the saved list is used.`,
        vi: `Không cập nhật được danh sách mẫu năm ${year}; dùng danh sách đã lưu.`,
      });
    }
  }
}

/** An input the issue check refused: named by its file (or draft) and field. */
function rejected(input: Input, error: AppError, draftId: string | null): IssueItem {
  const first = error.issues?.[0];
  return {
    id: null,
    refId: input.data?.RefID ?? '',
    state: 'rejected',
    invSeries: input.data?.InvSeries ?? null,
    transactionId: null,
    invNo: null,
    invoiceCode: null,
    errorCode: first?.code ?? error.code,
    message: error.message,
    messageVi: error.messageVi,
    draftId,
    input: input.label,
    field: first?.path ?? null,
  };
}

/**
 * Queues each input, all without waiting on anything (so no request leaves before every input
 * is checked). An input whose RefID (or draft) is already in the queue is not queued again: its
 * entry is reported, so running the same command twice never issues an invoice twice.
 */
function queueAll(
  ctx: CommandContext,
  cli: CliServices,
  inputs: readonly Input[],
  over: { signType?: SignType; certificateSN?: string },
): { queued: Array<{ input: Input; entry: IssueEntry }>; refused: IssueItem[] } {
  const { issuing } = cli.services;
  const { drafts } = cli.services.drafting;
  const queued: Array<{ input: Input; entry: IssueEntry }> = [];
  const refused: IssueItem[] = [];
  for (const input of inputs) {
    let draftId = input.draftId ?? null;
    try {
      const ref = input.data?.RefID.trim();
      const before = ref ? issuing.queue.byRefId(cli.profile.id, ref) : null;
      const locked = draftId ? drafts.get(draftId).issue : null;
      const existing = before ?? (locked ? issuing.queue.get(locked.id) : null);
      if (existing) {
        ctx.progress({
          en: `${input.label}: already in the issue queue as #${existing.id} (${existing.state}); not queued again.`,
          vi: `${input.label}: đã có trong hàng đợi phát hành (#${existing.id}, ${existing.state}); không xếp lại.`,
        });
        queued.push({ input, entry: existing });
        continue;
      }
      draftId ??= drafts.import(input.data).id;
      queued.push({ input, entry: issuing.queueDraft(draftId, undefined, over) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const item = rejected(input, error, draftId);
      refused.push(item);
      ctx.progress({
        en: `${input.label}${item.field ? `: ${item.field}` : ''}: ${error.message}`,
        vi: `${input.label}${item.field ? `: ${item.field}` : ''}: ${error.messageVi}`,
      });
    }
  }
  return { queued, refused };
}

/** `--sign-type` and `--cert`, checked: 1 (USB token) and anything else unsupported is refused with the reason. */
function signingFor(values: Record<string, unknown>): { signType?: SignType; certificateSN?: string } {
  const out: { signType?: SignType; certificateSN?: string } = {};
  const raw = values['sign-type'];
  if (typeof raw === 'string') {
    const n = Number(raw.trim());
    if (!(SIGN_TYPES as readonly number[]).includes(n)) {
      throw usage(
        n === 1
          ? '--sign-type 1 (USB token) needs a signing tool on the PC and is not supported: use 2 (HSM) or 5 (cash register).'
          : `--sign-type must be 2, 5, 3 or 6 (got ${raw}).`,
        n === 1
          ? '--sign-type 1 (USB token) cần công cụ ký trên máy và chưa được hỗ trợ: hãy dùng 2 (HSM) hoặc 5 (máy tính tiền).'
          : `--sign-type phải là 2, 5, 3 hoặc 6 (đang là ${raw}).`,
      );
    }
    out.signType = n as SignType;
  }
  if (typeof values.cert === 'string' && values.cert.trim()) out.certificateSN = values.cert.trim();
  return out;
}

/**
 * `einvoice issue FILE.json… | --draft ID… [--wait S] [--queue-only]`: queues each invoice
 * (checked as the app checks it, frozen, its draft locked) and issues them; prints each one's
 * number or why not.
 */
export const issueCommand: CliCommand = {
  name: 'issue',
  summary: {
    en: 'Issue invoices (InvoiceData JSON files or drafts); prints each one’s number',
    vi: 'Phát hành hóa đơn (tệp JSON InvoiceData hoặc bản nháp); in số từng hóa đơn',
  },
  synopsis: '(FILE.json… | --draft ID…) [--sign-type 2|5|3|6] [--cert SN] [--wait SECONDS] [--queue-only]',
  options: {
    'sign-type': text('2|5|3|6', 'sign type for this run (default: Settings → Issuing); 1 (USB token) is not supported'),
    cert: text('SN', 'the certificate (CertificateSN) for sign types 2 and 3 (default: Settings, or the only one)'),
    draft: { type: 'string', multiple: true, arg: 'ID', help: 'a draft of the data folder (repeat, or ID,ID)' },
    wait: text('SECONDS', 'how long to keep retrying and looking up unknown outcomes (default 120)'),
    'queue-only': flag('only queue; the app (or `einvoice issue-queue flush`) issues later'),
  },
  positionals: { min: 0, max: 1000, label: 'FILE.json…' },
  async run(ctx, { values, positionals }) {
    const waitMs = parseWait(values, 'issue');
    const over = signingFor(values);
    const ids = draftIds(values.draft);
    if (positionals.length === 0 && ids.length === 0)
      throw new UsageError({ en: 'Give FILE.json… or --draft ID….', vi: 'Hãy nhập TỆP.json… hoặc --draft MÃ….' }, 'issue');
    // Every file is read and checked as an InvoiceData before anything is written.
    const inputs: Input[] = [
      ...positionals.map((name) => ({ label: name, data: readInvoice(ctx.io.cwd, name) })),
      ...ids.map((id) => ({ label: `--draft ${id}`, draftId: id })),
    ];
    const queueOnly = values['queue-only'] === true;
    const cli = await openIssuing(ctx, true);
    for (const input of inputs) {
      if (input.draftId === undefined) continue;
      try {
        cli.services.drafting.drafts.get(input.draftId);
      } catch (error) {
        if (error instanceof AppError) throw usage(`${input.label}: ${error.message}`, `${input.label}: ${error.messageVi}`);
        throw error;
      }
    }
    if (!queueOnly) await cli.sessionNow();
    await ensureTemplates(ctx, cli, inputs);
    const { runner } = cli.services.issuing;
    if (queueOnly) await runner.stop(0);
    const { queued, refused } = queueAll(ctx, cli, inputs, over);
    // Nothing has left yet (queueing never waits): with a refused input none of the run is issued now.
    if (refused.length > 0) void runner.stop(0);
    const entryIds = queued.map((q) => q.entry.id);
    let report = { paused: false, aborted: false };
    if (refused.length === 0 && !queueOnly) {
      report = await runQueue(ctx, cli, entryIds, waitMs);
      if (!report.aborted) await cli.services.issuing.followUps?.run(cli.profile.id);
    } else if (queued.length > 0) {
      ctx.progress({
        en: `${queued.length} invoices are queued; the app or einvoice issue-queue flush issues them.`,
        vi: `Đã xếp ${queued.length} hóa đơn vào hàng đợi; ứng dụng hoặc einvoice issue-queue flush sẽ phát hành.`,
      });
    }
    const items = [...queued.map(({ input, entry }) => itemJson(cli.services.issuing.queue.get(entry.id) ?? entry, input.label)), ...refused];
    const exitCode = queueOnly && refused.length === 0 ? ExitCode.Ok : exitFor(items, report);
    return { exitCode, json: { items }, text: itemsText(items) };
  },
};

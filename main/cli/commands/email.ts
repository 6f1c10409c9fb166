import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmailAddResult, EmailEntry, EmailReject, EmailSkip, EmailState } from '../../../common/calls/emails';
import { flag, invoiceKindOf, KIND_OPTIONS, listText, parseWait, text } from '../options';
import type { EmailService } from '../../services/emails';
import { queueBuyerEmails } from './by-date';
import { kindFilter, rangeOf, seriesOf } from './issued';
import { ExitCode, UsageError, type CliCommand, type CliOption, type CommandContext, type ParsedArgs } from '../registry';

/** The email queue of the data folder (the same outbox as the app), with a way to send it. */
interface CliQueue {
  emails: EmailService;
  /** False when the connection is a bare --base-url (no profile sign-in). */
  profileId: string;
}

/**
 * Opens the outbox. With `--base-url` (or EINVOICE_BASE_URL) the queue sends through the
 * command's client (EINVOICE_TOKEN); otherwise through the profile's sign-in, like the app
 * (`--profile NAME`, default the active profile; the built-in Sandbox honours EINVOICE_SANDBOX_URL).
 */
export async function openQueue(ctx: CommandContext, batch: number | undefined): Promise<CliQueue> {
  const { globals, io } = ctx;
  const log = io.env.EINVOICE_DEBUG ? (level: string, message: string) => void io.stderr.write(`[${level}] ${message}\n`) : undefined;
  const common = {
    sendTimeoutMs: globals.timeoutMs ?? 30_000,
    backoffBaseMs: 500,
    backoffMaxMs: 30_000,
    stopGraceMs: 30_000,
    ...(log ? { log } : {}),
  };
  const cli = await ctx.services({ emails: { ...(batch ? { batchSize: () => batch } : {}), ...common } });
  return { emails: cli.services.emails, profileId: cli.profile.id };
}

interface FlushReport {
  exitCode: number;
  paused: boolean;
  offline: boolean;
}

/**
 * Sends what is due; waits through backoff (up to `waitMs`) while `ids` are still queued. SIGINT or
 * SIGTERM stops the sender at once (no grace): a request in flight was armed, so its entries
 * become `unknown` and are never sent again; a back-off wait ends.
 */
export async function flushAndWait(ctx: CommandContext, q: CliQueue, ids: readonly number[], waitMs: number): Promise<FlushReport> {
  const { emails } = q;
  const deadline = Date.now() + waitMs;
  const pending = () => ids.some((id) => emails.outbox.get(id)?.state === 'queued');
  const stopNow = () => void emails.sender.stop(0);
  ctx.signal.addEventListener('abort', stopNow, { once: true });
  try {
    while (!ctx.signal.aborted) {
      await emails.flush({ signInTimeoutMs: 3_000 });
      if (ctx.signal.aborted) break;
      const st = emails.sender.senderStatus();
      if (!pending() || (st.state !== 'backoff' && st.state !== 'offline')) break;
      const next = st.nextAttemptAt ? Date.parse(st.nextAttemptAt) : Date.now() + 1_000;
      if (next > deadline) break;
      ctx.progress({
        en: `Waiting ${Math.ceil((next - Date.now()) / 1000)} s before sending again…`,
        vi: `Chờ ${Math.ceil((next - Date.now()) / 1000)} giây rồi gửi lại…`,
      });
      await sleep(Math.max(50, next - Date.now()), undefined, { signal: ctx.signal }).catch(() => {});
    }
  } finally {
    ctx.signal.removeEventListener('abort', stopNow);
  }
  if (ctx.signal.aborted) await emails.sender.stop(0);
  const st = emails.sender.senderStatus();
  return { exitCode: 0, paused: st.state === 'paused', offline: st.state === 'offline' || st.state === 'backoff' };
}

interface ItemJson {
  id: number | null;
  transactionId: string | null;
  state: EmailState | 'rejected' | 'skipped';
  sendEmailStatus: number | null;
  errorCode: string | null;
  message?: string;
  messageVi?: string;
  line?: number | null;
}

export function itemJson(e: EmailEntry): ItemJson {
  return {
    id: e.id,
    transactionId: e.transactionId,
    state: e.state,
    sendEmailStatus: e.sendEmailStatus,
    errorCode: e.errorCode,
    ...(e.lastError ? { message: e.lastError.en, messageVi: e.lastError.vi } : {}),
  };
}

function rejectJson(r: EmailReject): ItemJson {
  return {
    id: null,
    transactionId: r.transactionId,
    state: 'rejected',
    sendEmailStatus: null,
    errorCode: null,
    message: r.reason.en,
    messageVi: r.reason.vi,
    line: r.line,
  };
}

/** A row not queued because its invoice was already sent or is waiting (`--resend` sends it again). */
function skipJson(r: EmailSkip): ItemJson {
  return {
    id: r.entryId,
    transactionId: r.transactionId,
    state: 'skipped',
    sendEmailStatus: null,
    errorCode: null,
    message: r.reason.en,
    messageVi: r.reason.vi,
    line: r.line,
  };
}

const STATE_VI: Record<ItemJson['state'], string> = {
  queued: 'đang chờ',
  sending: 'đang gửi',
  sent: 'đã gửi',
  requested: 'đã yêu cầu gửi',
  sendingAtService: 'dịch vụ đang gửi',
  failed: 'lỗi',
  unknown: 'không rõ',
  cancelled: 'đã hủy',
  rejected: 'bị từ chối',
  skipped: 'bỏ qua',
};

export function itemsText(items: readonly ItemJson[]): string {
  return listText(items, 'Không có email nào / No emails.', (i) => {
    const where = i.line ? `line ${i.line}: ` : i.id !== null ? `#${i.id} ` : '';
    const status = i.sendEmailStatus !== null ? ` (SendEmailStatus ${i.sendEmailStatus})` : '';
    const err = i.errorCode ? ` [${i.errorCode}]` : '';
    const msg =
      i.message && (i.state === 'failed' || i.state === 'unknown' || i.state === 'rejected' || i.state === 'skipped') ? ` — ${i.messageVi} / ${i.message}` : '';
    return `${where}${i.transactionId ?? '?'}: ${STATE_VI[i.state]} / ${i.state}${status}${err}${msg}`;
  });
}

/** Exit code: 1 when any entry failed (or was refused), 3 when sign-in is needed, 4 when still waiting for the service, else 0 (skipped rows included). */
export function exitFor(items: readonly ItemJson[], report: FlushReport): number {
  if (items.some((i) => i.state === 'failed' || i.state === 'unknown' || i.state === 'rejected')) return ExitCode.SomeFailed;
  const waiting = items.some((i) => i.state === 'queued');
  if (waiting && report.paused) return ExitCode.Auth;
  if (waiting) return ExitCode.Unreachable;
  return ExitCode.Ok;
}

export function parseBatch(values: ParsedArgs['values'], command: string): number | undefined {
  const raw = values.batch;
  if (typeof raw !== 'string') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new UsageError(
      { en: `--batch must be a whole number from 1 to 100 (got ${raw}).`, vi: `--batch phải là số nguyên từ 1 đến 100 (đang là ${raw}).` },
      command,
    );
  }
  return n;
}

export const SEND_OPTIONS: Record<string, CliOption> = {
  batch: text('N', 'invoices per sendemail request (default: the setting, 20)'),
  wait: text('SECONDS', 'how long to keep retrying after transient errors (default 120)'),
  'no-send': flag('only queue; the app (or `einvoice queue flush`) sends later'),
};

/**
 * `einvoice email --csv FILE [--with-code | --calc]` and
 * `einvoice email --id ID --to "a@x;b@y" [--name N] [--cc …] [--bcc …] [--reply …]`:
 * queue, send, print each invoice's outcome. An invoice already sent, handed to the service,
 * with an unknown outcome or waiting is skipped with the reason, unless `--resend`.
 */
export const emailCommand: CliCommand = {
  name: 'email',
  summary: { en: 'Queue and send invoice emails; prints each invoice’s outcome', vi: 'Xếp hàng và gửi email hóa đơn; in kết quả từng hóa đơn' },
  synopsis:
    '(--csv FILE | --id ID --to "a@x;b@y" [--name N] [--cc …] [--bcc …] [--reply …] | --from YYYY-MM-DD --to YYYY-MM-DD --to-buyer [--series S,…]) [--with-code | --calc] [--resend]',
  options: {
    csv: text('FILE', 'CSV with TransactionID, ReceiverName, ReceiverEmail, CCEmail, BCCEmail, ReplyEmail'),
    id: text('ID', 'TransactionID of one invoice'),
    to: text('ADDRS', 'receiver address(es), separated by ; or , (with --from: the last invoice date, YYYY-MM-DD)'),
    from: text('YYYY-MM-DD', 'email every issued invoice from this date to --to (synced first), with --to-buyer'),
    'to-buyer': flag("with --from/--to: send each invoice to its buyer's email address"),
    series: text('S,…', 'with --from/--to: only these series'),
    name: text('NAME', 'receiver name'),
    cc: text('ADDRS', 'CC address(es)'),
    bcc: text('ADDRS', 'BCC address(es)'),
    reply: text('ADDR', 'reply-to address'),
    ...KIND_OPTIONS,
    resend: flag('send again invoices already sent, handed to the service or with an unknown outcome'),
    ...SEND_OPTIONS,
  },
  async run(ctx, { values }) {
    if (values.from !== undefined || values['to-buyer'] === true) return emailByDate(ctx, values);
    const csv = typeof values.csv === 'string' ? values.csv : undefined;
    const id = typeof values.id === 'string' ? values.id : undefined;
    if ((csv === undefined) === (id === undefined)) {
      throw new UsageError({ en: 'Give either --csv FILE or --id ID --to ADDRESSES.', vi: 'Dùng --csv TỆP hoặc --id MÃ --to ĐỊA_CHỈ.' }, 'email');
    }
    if (values['with-code'] === true && values.calc === true) {
      throw new UsageError({ en: 'Give at most one of --with-code and --calc.', vi: 'Chỉ dùng một trong --with-code và --calc.' }, 'email');
    }
    const kind = invoiceKindOf(values);
    const batch = parseBatch(values, 'email');
    const waitMs = parseWait(values, 'email');
    let text: string | undefined;
    if (csv !== undefined) {
      const file = path.resolve(ctx.io.cwd, csv);
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new UsageError({ en: `Cannot read ${file}: ${(error as Error).message}`, vi: `Không đọc được ${file}: ${(error as Error).message}` }, 'email');
      }
    } else if (typeof values.to !== 'string') {
      throw new UsageError({ en: '--id needs --to ADDRESSES.', vi: '--id cần --to ĐỊA_CHỈ.' }, 'email');
    }

    const q = await openQueue(ctx, batch);
    const options = { resend: values.resend === true };
    const one = {
      transactionId: id!,
      receiverEmail: values.to as string,
      kind,
      ...(typeof values.name === 'string' ? { receiverName: values.name } : {}),
      ...(typeof values.cc === 'string' ? { ccEmail: values.cc } : {}),
      ...(typeof values.bcc === 'string' ? { bccEmail: values.bcc } : {}),
      ...(typeof values.reply === 'string' ? { replyEmail: values.reply } : {}),
    };
    const result = text !== undefined ? await q.emails.importCsv(text, kind, options) : q.emails.add([one], options);
    return finish(ctx, q, result, values, waitMs);
  },
};

/** `einvoice email --from D --to D --to-buyer [--series S,…] [--with-code | --calc]`: every invoice of the range, to its buyer. */
async function emailByDate(ctx: CommandContext, values: ParsedArgs['values']) {
  if (values['to-buyer'] !== true || values.from === undefined) {
    throw new UsageError(
      { en: 'A date range goes with --to-buyer: --from D --to D --to-buyer.', vi: 'Khoảng ngày đi cùng --to-buyer: --from D --to D --to-buyer.' },
      'email',
    );
  }
  if (values.csv !== undefined || values.id !== undefined) {
    throw new UsageError({ en: 'Give either a date range or --csv/--id, not both.', vi: 'Dùng khoảng ngày hoặc --csv/--id, không dùng cả hai.' }, 'email');
  }
  const range = rangeOf(values, 'email')!;
  const kind = kindFilter(values, 'email');
  const series = seriesOf(values, 'email');
  const batch = parseBatch(values, 'email');
  const waitMs = parseWait(values, 'email');
  const q = await openQueue(ctx, batch);
  const result = await queueBuyerEmails(
    ctx,
    await ctx.services(),
    { ...range, ...(kind ? { kind } : {}), ...(series ? { series } : {}) },
    values.resend === true,
  );
  return finish(ctx, q, result, values, waitMs);
}

/** Sends what was queued (unless --no-send) and reports each invoice. */
async function finish(ctx: CommandContext, q: CliQueue, result: EmailAddResult, values: ParsedArgs['values'], waitMs: number) {
  ctx.progress({
    en: `${result.added.length} queued, ${result.skipped.length} skipped (already sent or waiting), ${result.rejected.length} refused.`,
    vi: `Đã xếp hàng ${result.added.length}, bỏ qua ${result.skipped.length} (đã gửi hoặc đang chờ), từ chối ${result.rejected.length}.`,
  });
  const report = values['no-send'] === true ? { exitCode: 0, paused: false, offline: false } : await flushAndWait(ctx, q, result.added, waitMs);
  const items = [
    ...result.added
      .map((n) => q.emails.outbox.get(n))
      .filter((e): e is EmailEntry => e !== null)
      .map(itemJson),
    ...result.skipped.map(skipJson),
    ...result.rejected.map(rejectJson),
  ];
  const exitCode = values['no-send'] === true ? (result.rejected.length > 0 ? ExitCode.SomeFailed : ExitCode.Ok) : exitFor(items, report);
  return { exitCode, json: { items }, text: itemsText(items) };
}

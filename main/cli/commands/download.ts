import fs from 'node:fs';
import path from 'node:path';
import type { DownloadDataType } from '../../../common/model';
import type { EngineProgress } from '../../services/downloads';
import { ApiError, apiErrors, parseServiceUrl } from '../../services/api';
import { ExitCode, UsageError, type CliCommand } from '../registry';
import { flag, invoiceKindOf, KIND_OPTIONS, text } from '../options';
import { issuedInRange } from './by-date';
import { RANGE_OPTIONS, rangeOf, seriesOf } from './issued';
import { formatBytes, formatEta } from '../../../common/format';

const TYPES: Record<string, DownloadDataType> = { xml: 'Xml', pdf: 'Pdf', html: 'Html', all: 'All' };
const POLICIES = { skip: 'skip', overwrite: 'overwrite', 'keep-both': 'keepBoth' } as const;

export function progressLine(p: EngineProgress, width = 24): string {
  const c = p.counts;
  const done = c.saved + c.skipped + c.failed;
  const fill = c.total === 0 ? width : Math.round((done / c.total) * width);
  const bar = `${'#'.repeat(fill)}${'-'.repeat(width - fill)}`;
  return `[${bar}] ${done}/${c.total}  ✓${c.saved + c.skipped} ✗${c.failed}  ${formatBytes(c.bytes, 'en')}  ${formatBytes(Math.round(p.rate), 'en')}/s  ETA ${formatEta(p.etaSeconds, '--:--')}`;
}

/**
 * `einvoice download --type xml|pdf|html|all --out DIR [--with-code] [--calc] [--unzip]
 * [--ids-file F | ID… | --from YYYY-MM-DD --to YYYY-MM-DD [--series S,…]]` (a date range: the
 * register is synced for it first and gives the IDs of that kind). The job is kept in the database: running the same command again after
 * an interruption (Ctrl+C, a crash, kill -9) continues it without fetching saved items again.
 */
export const downloadCommand: CliCommand = {
  name: 'download',
  summary: { en: 'Download issued invoices (XML/PDF/HTML/zip) into a folder', vi: 'Tải hóa đơn đã phát hành (XML/PDF/HTML/zip) về một thư mục' },
  options: {
    type: text('xml|pdf|html|all', 'xml, pdf, html or all (a zip of XML + PDF)', true),
    out: text('DIR', 'target folder (created if missing)', true),
    ...KIND_OPTIONS,
    unzip: flag('with --type all: extract each zip into a folder per invoice'),
    existing: text('POLICY', 'when a file exists: skip (default), overwrite, keep-both'),
    concurrency: text('N', 'calls in flight at once (1–16, default 4)'),
    'ids-file': text('FILE', 'TransactionIDs from a TXT (one per line) or CSV file'),
    ...RANGE_OPTIONS,
    series: text('S,…', 'with --from/--to: only these series'),
  },
  positionals: { min: 0, max: 100_000, label: '[ID…]' },
  async run(ctx, { values, positionals }) {
    const typeRaw = typeof values.type === 'string' ? values.type.toLowerCase() : '';
    const type = TYPES[typeRaw];
    if (!type) throw new UsageError({ en: '--type must be xml, pdf, html or all.', vi: '--type phải là xml, pdf, html hoặc all.' }, 'download');
    if (typeof values.out !== 'string' || values.out.trim() === '') {
      throw new UsageError({ en: '--out DIR is required.', vi: 'Cần --out THƯ_MỤC.' }, 'download');
    }
    const existingRaw = typeof values.existing === 'string' ? values.existing : 'skip';
    const existing = POLICIES[existingRaw as keyof typeof POLICIES];
    if (!existing)
      throw new UsageError({ en: '--existing must be skip, overwrite or keep-both.', vi: '--existing phải là skip, overwrite hoặc keep-both.' }, 'download');
    let concurrency = 4;
    if (typeof values.concurrency === 'string') {
      concurrency = Number(values.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
        throw new UsageError({ en: '--concurrency must be a whole number from 1 to 16.', vi: '--concurrency phải là số nguyên từ 1 đến 16.' }, 'download');
      }
    }
    if (values.unzip === true && type !== 'All') {
      throw new UsageError({ en: '--unzip goes with --type all.', vi: '--unzip chỉ dùng với --type all.' }, 'download');
    }
    let idsText: string | undefined;
    let fileName: string | undefined;
    if (typeof values['ids-file'] === 'string') {
      fileName = path.resolve(ctx.io.cwd, values['ids-file']);
      try {
        idsText = await fs.promises.readFile(fileName, 'utf8');
      } catch (error) {
        throw new UsageError({
          en: `Cannot read ${fileName}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
          vi: `Không đọc được ${fileName}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        });
      }
    }
    const range = rangeOf(values, 'download');
    if (range && (idsText !== undefined || positionals.length > 0)) {
      throw new UsageError({ en: 'Give either IDs or --from/--to, not both.', vi: 'Dùng mã tra cứu hoặc --from/--to, không dùng cả hai.' }, 'download');
    }
    const series = seriesOf(values, 'download');
    if (!range && idsText === undefined && positionals.length === 0) {
      throw new UsageError({ en: 'Give TransactionIDs or --ids-file FILE.', vi: 'Hãy nhập mã tra cứu (TransactionID) hoặc --ids-file TỆP.' }, 'download');
    }

    // The app's download service, sign-in gate and failure reporting; no session → exit 3 now.
    const cli = await ctx.services({ requireService: true, downloads: { engine: { concurrency } } });
    const session = await cli.sessionNow();
    const service = cli.services.downloads;
    const profileId = cli.profile.id;
    const kind = invoiceKindOf(values);
    const ids = range ? (await issuedInRange(ctx, cli, { ...range, kind, ...(series ? { series } : {}) })).map((i) => i.transactionId) : positionals;
    if (range && ids.length === 0) {
      return {
        json: { jobId: null, folder: null, items: [], saved: 0, failed: 0, skipped: 0 },
        text: 'Không có hóa đơn nào trong khoảng ngày này. / No invoices in that range.',
      };
    }

    const folder = path.resolve(ctx.io.cwd, values.out);
    const { job, parsed, resumed } = await service.createOrResume(
      { ids, idsText, fileName, type, kind, folder, existing, unzip: values.unzip === true },
      profileId,
      `${profileId}|${parseServiceUrl(session.endpoint.baseUrl).href}`,
      session.endpoint.baseUrl,
    );
    if (parsed.duplicates + parsed.blanks > 0) {
      ctx.progress({
        en: `${parsed.ids.length} IDs (${parsed.duplicates} duplicates and ${parsed.blanks} blanks dropped)`,
        vi: `${parsed.ids.length} mã (bỏ ${parsed.duplicates} mã trùng và ${parsed.blanks} dòng trống)`,
      });
    }
    if (resumed) ctx.progress({ en: `Continuing the unfinished job ${job.id.slice(0, 8)}`, vi: `Tiếp tục lượt tải chưa xong ${job.id.slice(0, 8)}` });

    const tty = (ctx.io.stderr as { isTTY?: boolean }).isTTY === true && !ctx.globals.json;
    let drawn = false;
    const draw = (p: EngineProgress) => {
      if (!tty) return;
      ctx.io.stderr.write(`\r${progressLine(p)}\u001b[K`);
      drawn = true;
    };
    const onAbort = () => void service.pause(job.id);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    service.start(job.id, draw);
    const final = await service.whenDone(job.id);
    ctx.signal.removeEventListener('abort', onAbort);
    if (drawn) ctx.io.stderr.write('\n');

    if (cli.refused) {
      // Refused like in the app: the job is paused (run the command again after einvoice login).
      throw final.lastError ? new ApiError('auth', final.lastError, { operation: 'download' }) : apiErrors.auth({ operation: 'download' });
    }
    const interrupted = final.status !== 'done';
    const page = service.repo.page(job.id, 0, Number.MAX_SAFE_INTEGER);
    const items = page.items.map((i) => {
      if (i.state === 'pending' || i.state === 'placing') {
        return {
          transactionId: i.transactionId,
          status: 'failed' as const,
          file: null,
          errorCode: 'Interrupted',
          message: final.lastError?.en ?? 'Not downloaded: the job was interrupted. Run the same command again to continue.',
        };
      }
      return {
        transactionId: i.transactionId,
        status: i.state as 'saved' | 'failed' | 'skipped',
        file: i.file ? path.join(job.folder, i.file) : null,
        errorCode: i.errorCode,
        message: i.message?.en ?? null,
      };
    });
    const at = new Date().toISOString();
    cli.services.register.repo.setFollowUp(
      profileId,
      items.filter((i) => i.status !== 'failed').map((i) => i.transactionId),
      'download',
      'done',
      at,
    );
    const saved = items.filter((i) => i.status === 'saved').length;
    const skipped = items.filter((i) => i.status === 'skipped').length;
    const failed = items.length - saved - skipped;
    const failures = items.filter((i) => i.status === 'failed');
    const lines = [
      `Đã lưu ${saved}, bỏ qua ${skipped}, lỗi ${failed} → ${job.folder}`,
      `Saved ${saved}, skipped ${skipped}, failed ${failed} → ${job.folder}`,
      ...failures.slice(0, 20).map((f) => `  ✗ ${f.transactionId}: ${f.errorCode ?? ''} ${f.message ?? ''}`.trimEnd()),
      ...(failures.length > 20 ? [`  … ${failures.length - 20} more / còn ${failures.length - 20} mã nữa`] : []),
      ...(interrupted ? ['Chưa xong: chạy lại cùng lệnh để tiếp tục. / Not finished: run the same command again to continue.'] : []),
    ];
    return {
      exitCode: failed > 0 ? ExitCode.SomeFailed : ExitCode.Ok,
      json: { jobId: job.id, folder: job.folder, items, saved, failed, skipped },
      text: lines.join('\n'),
    };
  },
};

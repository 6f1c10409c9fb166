import path from 'node:path';
import { isCalendarDate } from '../../../common/rules';
import { ExitCode, UsageError, type CliCommand } from '../registry';
import { text } from '../options';

/**
 * `einvoice paper-copy ID… --converter NAME --out DIR [--date YYYY-MM-DD]`: saves the paper copy
 * converted from each issued invoice ("HÓA ĐƠN CHUYỂN ĐỔI TỪ HÓA ĐƠN ĐIỆN TỬ", with the converter's
 * name and the date) as one PDF per invoice. The invoices must be in the register (einvoice issued sync).
 */
export const paperCopyCommand: CliCommand = {
  name: 'paper-copy',
  summary: {
    en: 'Save the paper copies converted from issued invoices (PDF) into a folder',
    vi: 'Lưu bản chuyển đổi ra giấy của hóa đơn đã phát hành (PDF) vào thư mục',
  },
  synopsis: 'ID… --converter NAME --out DIR [--date YYYY-MM-DD]',
  positionals: { min: 1, max: 1000, label: 'ID…' },
  options: {
    converter: text('NAME', 'the person converting (printed on the copy)', true),
    out: text('DIR', 'target folder (created if missing)', true),
    date: text('YYYY-MM-DD', 'conversion date (default: today)'),
  },
  async run(ctx, { values, positionals }) {
    const converter = typeof values.converter === 'string' ? values.converter.trim() : '';
    if (!converter) throw new UsageError({ en: '--converter NAME is required.', vi: 'Cần --converter TÊN người chuyển đổi.' }, 'paper-copy');
    if (typeof values.out !== 'string' || !values.out.trim()) throw new UsageError({ en: '--out DIR is required.', vi: 'Cần --out THƯ_MỤC.' }, 'paper-copy');
    const date = typeof values.date === 'string' ? values.date.trim() : undefined;
    if (date !== undefined && !isCalendarDate(date)) {
      throw new UsageError({ en: `--date must be YYYY-MM-DD (got ${date}).`, vi: `--date phải có dạng YYYY-MM-DD (đang là ${date}).` }, 'paper-copy');
    }
    const bad = positionals.filter((id) => !/^[A-Za-z0-9_-]{1,64}$/.test(id));
    if (bad.length > 0) throw new UsageError({ en: `Not a TransactionID: ${bad.join(', ')}.`, vi: `Không phải mã tra cứu: ${bad.join(', ')}.` }, 'paper-copy');
    const cli = await ctx.services({ requireService: true });
    await cli.sessionNow();
    const folder = path.resolve(ctx.io.cwd, values.out);
    const r = await cli.services.register.paperCopy({ transactionIds: positionals, converter, folder, ...(date ? { date } : {}) });
    const lines = [
      `Đã lưu ${r.written.length}, lỗi ${r.failed.length} → ${folder}`,
      `Saved ${r.written.length}, failed ${r.failed.length} → ${folder}`,
      ...r.written.map((w) => `  ✓ ${w.transactionId}: ${w.file}`),
      ...r.failed.map((f) => `  ✗ ${f.transactionId}: ${f.code ?? ''} ${f.message}`.trimEnd()),
    ];
    return { exitCode: r.failed.length > 0 ? ExitCode.SomeFailed : ExitCode.Ok, json: { folder, ...r }, text: lines.join('\n') };
  },
};

import type { IssuedInvoice, SyncSummary } from '../../../common/calls/register';
import type { InvoiceKind } from '../../../common/model';
import { isCalendarDate } from '../../../common/rules';
import type { CliServices } from '../services';
import { UsageError, type CliCommand, type CliOption, type CommandContext, type ParsedArgs } from '../registry';
import { KIND_OPTIONS, text } from '../options';

/** `--from` / `--to`: a date range (YYYY-MM-DD, both days included). */
export const RANGE_OPTIONS: Record<'from' | 'to', CliOption> = {
  from: text('YYYY-MM-DD', 'first invoice date of the range'),
  to: text('YYYY-MM-DD', 'last invoice date of the range'),
};

/** The range of `--from`/`--to`, or null when neither is given; a bad or half range is a usage error. */
export function rangeOf(values: ParsedArgs['values'], command: string): { from: string; to: string } | null {
  const from = typeof values.from === 'string' ? values.from.trim() : undefined;
  const to = typeof values.to === 'string' ? values.to.trim() : undefined;
  if (from === undefined && to === undefined) return null;
  for (const [name, v] of [
    ['--from', from],
    ['--to', to],
  ] as const) {
    if (v === undefined || !isCalendarDate(v)) {
      throw new UsageError(
        { en: `${name} must be a date as YYYY-MM-DD (got ${v ?? 'nothing'}).`, vi: `${name} phải là ngày dạng YYYY-MM-DD (đang là ${v ?? 'trống'}).` },
        command,
      );
    }
  }
  if (from! > to!) throw new UsageError({ en: '--from must not be after --to.', vi: '--from không được sau --to.' }, command);
  return { from: from!, to: to! };
}

/** `--series 1C26TAA,1K26TAA`. */
export function seriesOf(values: ParsedArgs['values'], command: string): string[] | undefined {
  if (typeof values.series !== 'string') return undefined;
  const list = values.series
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  const bad = list.filter((s) => !/^[0-9A-Z]{6,7}$/.test(s));
  if (bad.length > 0) throw new UsageError({ en: `Not a series symbol: ${bad.join(', ')}.`, vi: `Không phải ký hiệu hóa đơn: ${bad.join(', ')}.` }, command);
  return list;
}

/** `--with-code` / `--calc` as a filter: neither means every kind. */
export function kindFilter(values: ParsedArgs['values'], command: string): InvoiceKind | undefined {
  if (values['with-code'] === true && values.calc === true) {
    throw new UsageError({ en: 'Give at most one of --with-code and --calc.', vi: 'Chỉ dùng một trong --with-code và --calc.' }, command);
  }
  return values['with-code'] === true ? 'withCode' : values.calc === true ? 'cashRegister' : undefined;
}

/** Syncs a range into the register with a progress line per page on stderr. */
export async function syncWithProgress(
  ctx: CommandContext,
  cli: CliServices,
  range: { from: string; to: string },
  kinds?: InvoiceKind[],
): Promise<SyncSummary> {
  await cli.sessionNow();
  const off = cli.services.bus.on('issued.syncProgress', (p) => {
    if (p.phase === 'list') ctx.progress({ en: `${p.kind}: ${p.seen}/${p.total} read`, vi: `${p.kind}: đã đọc ${p.seen}/${p.total}` });
  });
  try {
    return await cli.services.register.sync({ ...range, ...(kinds ? { kinds } : {}) }, ctx.signal);
  } finally {
    off();
  }
}

function listJson(items: readonly IssuedInvoice[]) {
  return items.map((i) => ({
    transactionId: i.transactionId,
    refId: i.refId,
    invNo: i.invNo,
    invSeries: i.invSeries,
    invDate: i.invDate,
    buyer: i.buyerName,
    total: i.total,
    sendTaxStatus: i.sendTaxStatus,
    eInvoiceStatus: i.eInvoiceStatus,
  }));
}

/**
 * `einvoice issued list --from D --to D [--series S,…] [--with-code | --calc] [--text T]` (the
 * register as it is; neither kind flag lists every kind) and `einvoice issued sync --from D --to D`
 * (reads the range from the service: only days not yet synced, plus today).
 */
export const issuedCommand: CliCommand = {
  name: 'issued',
  summary: {
    en: 'The register of issued invoices: list a date range, or sync it from the service',
    vi: 'Danh sách hóa đơn đã phát hành: liệt kê theo ngày, hoặc đồng bộ từ hệ thống',
  },
  synopsis: '(list | sync) --from YYYY-MM-DD --to YYYY-MM-DD [--series S,…] [--with-code | --calc] [--text T]',
  positionals: { min: 1, max: 1, label: 'list|sync' },
  options: {
    ...RANGE_OPTIONS,
    series: text('S,…', 'list only these series (e.g. 1C26TAA)'),
    ...KIND_OPTIONS,
    text: text('T', 'list only invoices whose buyer name, tax code or number contains T'),
  },
  async run(ctx, { values, positionals }) {
    const action = positionals[0];
    if (action !== 'list' && action !== 'sync') {
      throw new UsageError({ en: `Unknown action "${action}": use list or sync.`, vi: `Không có thao tác "${action}": dùng list hoặc sync.` }, 'issued');
    }
    const range = rangeOf(values, 'issued');
    if (!range) throw new UsageError({ en: '--from and --to are required.', vi: 'Cần --from và --to.' }, 'issued');
    const kind = kindFilter(values, 'issued');
    const series = seriesOf(values, 'issued');
    const cli = await ctx.services(action === 'sync' ? { requireService: true } : {});
    if (action === 'sync') {
      const s = await syncWithProgress(ctx, cli, range, kind ? [kind] : undefined);
      return {
        json: s,
        text: [
          `Đã đọc ${s.fetched} hóa đơn (${s.added} mới) trong ${s.pagingRequests} trang; cập nhật trạng thái thuế ${s.statusRefreshed} hóa đơn.`,
          `Read ${s.fetched} invoices (${s.added} new) in ${s.pagingRequests} pages; tax status refreshed for ${s.statusRefreshed}.`,
        ].join('\n'),
      };
    }
    const query = { ...range, ...(series ? { series } : {}), ...(kind ? { kind } : {}), ...(typeof values.text === 'string' ? { text: values.text } : {}) };
    const items = cli.services.register.all(query);
    const lines = items.map((i) => `${i.invDate}  ${i.invSeries} ${i.invNo}  ${i.transactionId}  ${i.total} ${i.currency}  ${i.buyerName}`);
    if (items.length === 0) lines.push('Không có hóa đơn: chạy einvoice issued sync trước? / No invoices: run einvoice issued sync first?');
    return { json: { invoices: listJson(items), total: items.length }, text: lines.join('\n') };
  },
};

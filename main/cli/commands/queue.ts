import { EMAIL_STATES, type EmailEntry } from '../../../common/calls/emails';
import { UsageError, type CliCommand } from '../registry';
import { parseAction, parseStates, parseWait } from '../options';
import { exitFor, flushAndWait, itemJson, itemsText, openQueue, parseBatch, SEND_OPTIONS } from './email';

function parseIds(raw: unknown): number[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const ids = raw
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n < 1))
    throw new UsageError({ en: `--ids takes entry numbers like 1,2,3 (got ${raw}).`, vi: `--ids nhận số thứ tự như 1,2,3 (đang là ${raw}).` }, 'queue');
  return ids;
}

/** `einvoice queue list|flush|retry [--json]`: the app's email queue from the command line. */
export const queueCommand: CliCommand = {
  name: 'queue',
  summary: { en: 'Show, send or retry the email queue (list | flush | retry)', vi: 'Xem, gửi hoặc gửi lại hàng đợi email (list | flush | retry)' },
  synopsis: 'list [--state S,…] | flush | retry [--ids N,…] [--unknown]',
  positionals: { min: 1, max: 1 },
  options: {
    state: { type: 'string', arg: 'S,…', help: `list only these states (${EMAIL_STATES.join(', ')})` },
    ids: { type: 'string', arg: 'N,…', help: 'retry these entries (default: every failed one)' },
    unknown: {
      type: 'boolean',
      help: 'retry also the entries whose outcome is unknown (check first: they may have been sent); without it they are left alone',
    },
    ...SEND_OPTIONS,
  },
  async run(ctx, { values, positionals }) {
    const action = parseAction(positionals, ['list', 'flush', 'retry'] as const, 'queue');
    const batch = parseBatch(values, 'queue');
    const waitMs = parseWait(values, 'queue');
    const q = await openQueue(ctx, batch);
    const { emails } = q;
    if (action === 'list') {
      const states = parseStates(values.state, EMAIL_STATES, 'queue');
      const { items } = emails.list({ ...(states ? { states } : {}), sort: 'id', dir: 'asc' });
      const out = items.map(itemJson);
      return { json: { items: out, counts: emails.status().counts }, text: itemsText(out) };
    }
    let ids: number[];
    if (action === 'retry') {
      const unknown = values.unknown === true;
      ids = parseIds(values.ids) ?? emails.idsIn(unknown ? ['failed', 'unknown'] : ['failed']);
      const r = emails.retry(ids, { unknown });
      ctx.progress({
        en: `${r.changed} back in the queue, ${r.skipped} left as they were.`,
        vi: `${r.changed} email được xếp lại hàng đợi, ${r.skipped} giữ nguyên.`,
      });
      for (const l of r.left)
        ctx.progress({ en: `#${l.id} ${l.transactionId ?? ''}: ${l.reason.en}`, vi: `#${l.id} ${l.transactionId ?? ''}: ${l.reason.vi}` });
      ids = ids.filter((id) => emails.outbox.get(id)?.state === 'queued');
    } else {
      ids = emails.idsIn(['queued']);
    }
    const report = values['no-send'] === true ? { exitCode: 0, paused: false, offline: false } : await flushAndWait(ctx, q, ids, waitMs);
    const items = ids
      .map((id) => emails.outbox.get(id))
      .filter((e): e is EmailEntry => e !== null)
      .map(itemJson);
    return { exitCode: exitFor(items, report), json: { items, counts: emails.status().counts }, text: itemsText(items) };
  },
};

import { EventEmitter, once } from 'node:events';
import { EMAIL_STATES, type EmailEntry, type EmailState } from '../../../common/calls/emails';
import type { EmailService } from '../../services/emails';
import { UsageError, type CliCommand, type CommandContext } from '../registry';
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

/** Entries read and written per page by `queue list`. */
const LIST_PAGE = 1000;

/** Writes one chunk, waiting while a pipe's buffer is full (so a long list never piles up in memory). */
async function write(out: CommandContext['io']['stdout'], text: string): Promise<void> {
  if (out.write(text) === false && out instanceof EventEmitter) await once(out, 'drain');
}

/**
 * `queue list`: the queue in entry order, read and written page by page; with `--json` still one
 * document (`{"items":[…],"counts":{…}}`), its items written as the pages are read.
 */
async function listInPages(ctx: CommandContext, emails: EmailService, profileId: string, states: EmailState[] | undefined): Promise<void> {
  const json = ctx.globals.json;
  const out = ctx.io.stdout;
  if (json) await write(out, '{"items":[');
  let written = 0;
  for (let offset = 0; ; offset += LIST_PAGE) {
    const { items } = emails.outbox.list(profileId, { ...(states ? { states } : {}), sort: 'id', dir: 'asc', offset, limit: LIST_PAGE });
    if (items.length > 0) {
      const rows = items.map(itemJson);
      await write(out, json ? `${written > 0 ? ',' : ''}${rows.map((r) => JSON.stringify(r)).join(',')}` : `${itemsText(rows)}\n`);
      written += rows.length;
    }
    if (items.length < LIST_PAGE) break;
  }
  if (json) await write(out, `],"counts":${JSON.stringify(emails.status().counts)}}\n`);
  else if (written === 0) await write(out, `${itemsText([])}\n`);
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
      await listInPages(ctx, q.emails, q.profileId, parseStates(values.state, EMAIL_STATES, 'queue'));
      return { streamed: true, json: null, text: '' };
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

import { kindFromFlags, type InvoiceKind } from '../../common/model';
import { UsageError, type CliOption, type ParsedArgs } from './registry';

/** A `--name VALUE` option; `arg` is the placeholder in the usage (`N`, `FILE`, …). */
export function text(arg: string, help: string, required = false): CliOption {
  return { type: 'string', arg, help, ...(required ? { required } : {}) };
}

/** A `--name` switch. */
export function flag(help: string): CliOption {
  return { type: 'boolean', help };
}

/** `--with-code` / `--calc`: which kind of invoice the command is about (neither: without code). */
export const KIND_OPTIONS: Record<'with-code' | 'calc', CliOption> = {
  'with-code': flag('invoices with a tax-authority code'),
  calc: flag('cash-register invoices (these carry a code too)'),
};

export function invoiceKindOf(values: ParsedArgs['values']): InvoiceKind {
  return kindFromFlags(values['with-code'] === true, values.calc === true);
}

/** `--state S,…` of a queue command: the states named, each one of `known`; undefined when not given. */
export function parseStates<S extends string>(raw: unknown, known: readonly S[], command: string): S[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const states = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = states.filter((s) => !(known as readonly string[]).includes(s));
  if (bad.length > 0) {
    throw new UsageError(
      { en: `Unknown state ${bad.join(', ')}; use ${known.join(', ')}.`, vi: `Không có trạng thái ${bad.join(', ')}; dùng ${known.join(', ')}.` },
      command,
    );
  }
  return states as S[];
}

/** `--wait SECONDS` in milliseconds (default two minutes). */
export function parseWait(values: ParsedArgs['values'], command: string): number {
  const raw = values.wait;
  if (typeof raw !== 'string') return 120_000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError({ en: `--wait must be a number of seconds (got ${raw}).`, vi: `--wait phải là số giây (đang là ${raw}).` }, command);
  return Math.round(n * 1000);
}

/** The first positional of a command with actions (`list | flush | …`), one of `actions`. */
export function parseAction<A extends string>(positionals: readonly string[], actions: readonly A[], command: string): A {
  const action = positionals[0] ?? '';
  if (!(actions as readonly string[]).includes(action)) {
    const last = actions.length - 1;
    const choices = (or: string) => (last > 0 ? `${actions.slice(0, last).join(', ')} ${or} ${actions[last]}` : actions.join(''));
    throw new UsageError({ en: `Unknown action "${action}": use ${choices('or')}.`, vi: `Không có thao tác "${action}": dùng ${choices('hoặc')}.` }, command);
  }
  return action as A;
}

/** A command's text output for a list: one line per item, or `none` (both languages) when empty. */
export function listText<T>(items: readonly T[], none: string, line: (item: T) => string): string {
  return items.length === 0 ? none : items.map(line).join('\n');
}

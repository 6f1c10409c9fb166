import { kindFromFlags, type InvoiceKind } from '../../common/model';
import type { CliOption, ParsedArgs } from './registry';

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

import type { EmailAddResult } from '../../../common/calls/emails';
import type { InvoiceKind } from '../../../common/model';
import type { CliServices } from '../services';
import type { CommandContext } from '../registry';
import { syncWithProgress } from './issued';

/** A date range of the register, brought up to date from the service first. */
export interface DateSelection {
  from: string;
  to: string;
  kind?: InvoiceKind;
  series?: string[];
}

/** Syncs the range, then the register's invoices in it (newest first). */
export async function issuedInRange(ctx: CommandContext, cli: CliServices, sel: DateSelection) {
  await syncWithProgress(ctx, cli, { from: sel.from, to: sel.to }, sel.kind ? [sel.kind] : undefined);
  const found = cli.services.register.all({
    from: sel.from,
    to: sel.to,
    ...(sel.kind ? { kind: sel.kind } : {}),
    ...(sel.series ? { series: sel.series } : {}),
  });
  ctx.progress({
    en: `${found.length} issued invoices from ${sel.from} to ${sel.to}.`,
    vi: `${found.length} hóa đơn đã phát hành từ ${sel.from} đến ${sel.to}.`,
  });
  return found;
}

/**
 * Queues one email per invoice of the range to its buyer's address (the register's BuyerEmail);
 * an invoice without one is refused with that reason. Invoices already emailed are skipped by the
 * queue unless `resend`.
 */
export async function queueBuyerEmails(ctx: CommandContext, cli: CliServices, sel: DateSelection, resend: boolean): Promise<EmailAddResult> {
  const found = await issuedInRange(ctx, cli, sel);
  const withAddress = found.filter((i) => i.buyerEmail.trim() !== '');
  const result = cli.services.emails.add(
    withAddress.map((i) => ({ transactionId: i.transactionId, receiverEmail: i.buyerEmail, receiverName: i.buyerName, kind: i.kind })),
    { resend },
  );
  const queued = new Set(result.added.map((id) => cli.services.emails.outbox.get(id)?.transactionId));
  cli.services.register.repo.setFollowUp(
    cli.profile.id,
    withAddress.filter((i) => queued.has(i.transactionId)).map((i) => i.transactionId),
    'email',
    'waiting',
    new Date().toISOString(),
  );
  const missing = found.filter((i) => i.buyerEmail.trim() === '');
  return {
    ...result,
    rejected: [
      ...result.rejected,
      ...missing.map((i) => ({
        line: null,
        index: null,
        transactionId: i.transactionId,
        reason: { en: 'The invoice has no buyer email address.', vi: 'Hóa đơn không có địa chỉ email của người mua.' },
      })),
    ],
  };
}

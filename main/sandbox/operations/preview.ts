import type { SandboxContext } from '../context';
import { DESCRIPTIONS, envelope, type Reply } from '../reply';
import { validateInvoiceData } from '../validate';

/** POST unpublishview with an InvoiceData → a short-lived link to the preview PDF. */
export async function opPreview(ctx: SandboxContext, body: unknown): Promise<Reply> {
  const { errors, invoice } = validateInvoiceData(body);
  if (!invoice) {
    const first = errors[0] ?? 'InvalidRequestBody';
    return { status: 200, envelope: envelope(false, null, first, DESCRIPTIONS[first] ?? first, errors) };
  }
  const bytes = await ctx.renderer.renderPreview(invoice);
  return { status: 200, envelope: envelope(true, ctx.links.add('preview', bytes)) };
}

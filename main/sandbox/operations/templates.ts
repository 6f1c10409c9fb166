import { encodeData, type SandboxContext } from '../context';
import { vietnamDate } from '../data';
import { envelope, fail, parseBool, qget, type Reply } from '../reply';

/** GET templates?invoiceWithCode=&ticket=&year= → the templates of that year and kind. */
export function opTemplates(ctx: SandboxContext, query: URLSearchParams): Reply {
  const withCode = parseBool(qget(query, 'invoiceWithCode'));
  const ticket = parseBool(qget(query, 'ticket'));
  const yearRaw = qget(query, 'year');
  const year = yearRaw === undefined || yearRaw === '' ? vietnamDate(ctx.now()).year : Number(yearRaw);
  if (withCode === 'bad' || ticket === 'bad' || !Number.isInteger(year)) return fail('InvalidRequestBody', 400);
  const list = ctx.templates.filter((t) => t.year === year && t.withCode === withCode && t.ticket === ticket).map((t) => t.template);
  return { status: 200, envelope: envelope(true, encodeData(ctx, list)) };
}

import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError, issuesFromZod, validationError } from '../../../common/errors';
import { InvoiceDataSchema } from '../../../common/model';
import { apiErrors } from '../../services/api';
import { text } from '../options';
import type { CliCommand } from '../registry';

/** `einvoice preview FILE.json [--save OUT.pdf]` → `{"link":"…","saved":"OUT.pdf"|null}`. */
export const previewCommand: CliCommand = {
  name: 'preview',
  summary: { en: 'Preview an invoice (one InvoiceData in a JSON file) as a PDF', vi: 'Xem trước hóa đơn (một InvoiceData trong tệp JSON) dạng PDF' },
  options: {
    save: text('OUT.pdf', 'fetch the PDF at once (the link lives ~30 s) and save it here'),
  },
  positionals: { min: 1, max: 1, label: 'FILE.json' },
  async run(ctx, { values, positionals }) {
    const file = path.resolve(ctx.io.cwd, positionals[0]!);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new AppError('usage', { en: `Cannot read ${file} (${why}).`, vi: `Không đọc được tệp ${file} (${why}).` });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new AppError('usage', { en: `${file} is not valid JSON (${why}).`, vi: `Tệp ${file} không phải JSON hợp lệ (${why}).` });
    }
    const parsed = InvoiceDataSchema.safeParse(raw);
    if (!parsed.success) throw validationError(issuesFromZod(parsed.error));

    // The app's preview service, for the chosen connection's session (none → exit 3).
    const cli = await ctx.services({ requireService: true });
    await cli.sessionNow();
    const save = typeof values.save === 'string' ? values.save : undefined;
    const { link, fetched } = await cli.services.drafting.preview.render(parsed.data, { fetch: save !== undefined, signal: ctx.signal });
    let saved: string | null = null;
    if (save !== undefined && fetched) {
      const { bytes } = fetched;
      if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
        throw apiErrors.malformed('the preview link did not return a PDF', { operation: 'fetch' });
      }
      const out = path.resolve(ctx.io.cwd, save);
      await fs.mkdir(path.dirname(out), { recursive: true });
      await fs.writeFile(out, bytes);
      saved = save;
      ctx.progress({ vi: `Đã lưu ${out} (${bytes.byteLength} byte)`, en: `Saved ${out} (${bytes.byteLength} bytes)` });
    }
    return { json: { link, saved }, text: saved ? `${link}\n${saved}` : link };
  },
};

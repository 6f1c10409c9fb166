import { flag, listText, text } from '../options';
import { UsageError, type CliCommand } from '../registry';

/** `einvoice templates [--with-code] [--ticket] [--year N]` → `{"templates":[…as received…]}`. */
export const templatesCommand: CliCommand = {
  name: 'templates',
  summary: { en: 'List the invoice/ticket templates (series) of the service', vi: 'Liệt kê mẫu hóa đơn/vé (ký hiệu) của dịch vụ' },
  options: {
    'with-code': flag('templates of invoices with a tax-authority code'),
    ticket: flag('templates of e-tickets'),
    year: text('N', 'year of the series (default: the current year)'),
  },
  async run(ctx, { values }) {
    let year: number | undefined;
    if (typeof values.year === 'string') {
      year = Number(values.year);
      if (!/^\d{4}$/.test(values.year)) {
        throw new UsageError(
          { en: `--year must be a 4-digit year (got ${values.year}).`, vi: `--year phải là năm 4 chữ số (đang là ${values.year}).` },
          'templates',
        );
      }
    }
    const client = await ctx.client();
    const templates = await client.templates({ withCode: values['with-code'] === true, ticket: values.ticket === true, year }, { signal: ctx.signal });
    const text = listText(templates, 'Không có mẫu nào / No templates.', (t) => {
      const flags = [t.Inactive ? 'inactive/ngừng dùng' : null, t.IsMoreVATRate ? 'multi-VAT' : null].filter(Boolean).join(', ');
      return `${String(t.InvSeries).padEnd(10)} ${t.TemplateName ?? ''}${flags ? `  (${flags})` : ''}`;
    });
    return { json: { templates }, text };
  },
};

import { createRng, randInt, uuid } from './prng';

/** The sandbox's invoice templates (docs/service.md#invoicetemplatedata, with every extra sample field), two years of them. */

interface TemplateSpec {
  form: '1' | '2' | '5';
  withCode: boolean;
  letter: string;
  suffix: string;
  name: string;
  ticket: boolean;
  inactive: boolean;
  moreVat: boolean;
  petrol: boolean;
  old: boolean;
}

/** A template of the catalogue: active, single VAT rate, current, unless `flags` say otherwise. */
function spec(
  form: TemplateSpec['form'],
  withCode: boolean,
  letter: string,
  suffix: string,
  name: string,
  flags: Partial<Pick<TemplateSpec, 'ticket' | 'inactive' | 'moreVat' | 'petrol' | 'old'>> = {},
): TemplateSpec {
  return { form, withCode, letter, suffix, name, ticket: false, inactive: false, moreVat: false, petrol: false, old: false, ...flags };
}

const TEMPLATE_SPECS: readonly TemplateSpec[] = [
  spec('1', true, 'T', 'AA', 'Hóa đơn giá trị gia tăng'),
  spec('1', true, 'T', 'BH', 'Hóa đơn GTGT nhiều thuế suất', { moreVat: true }),
  spec('1', true, 'T', 'XD', 'Hóa đơn GTGT xăng dầu', { inactive: true, petrol: true, old: true }),
  spec('1', true, 'M', 'AA', 'Hóa đơn GTGT khởi tạo từ máy tính tiền'),
  spec('2', true, 'T', 'BB', 'Hóa đơn bán hàng'),
  spec('1', false, 'T', 'AA', 'Hóa đơn giá trị gia tăng'),
  spec('1', false, 'T', 'DL', 'Hóa đơn GTGT nhiều thuế suất', { moreVat: true }),
  spec('2', false, 'T', 'CC', 'Hóa đơn bán hàng', { inactive: true, old: true }),
  spec('5', true, 'T', 'VE', 'Vé điện tử xe khách', { ticket: true }),
  spec('5', false, 'T', 'VX', 'Vé điện tử tham quan', { ticket: true }),
  spec('5', false, 'T', 'VC', 'Vé điện tử (mẫu cũ)', { ticket: true, inactive: true, old: true }),
];

export type SandboxTemplate = Record<string, unknown> & {
  IPTemplateID: string;
  TemplateName: string;
  InvSeries: string;
  Inactive: boolean;
};

export interface TemplateEntry {
  year: number;
  withCode: boolean;
  ticket: boolean;
  template: SandboxTemplate;
}

export function buildTemplates(seed: number, currentYear: number): TemplateEntry[] {
  const rng = createRng(`templates:${seed}`);
  const out: TemplateEntry[] = [];
  let sort = 0;
  for (const year of [currentYear - 1, currentYear]) {
    const yy = String(year % 100).padStart(2, '0');
    for (const spec of TEMPLATE_SPECS) {
      const orgSeries = `${spec.withCode ? 'C' : 'K'}${yy}${spec.letter}${spec.suffix}`;
      const created = `${year - 1}-12-${String(randInt(rng, 10, 28)).padStart(2, '0')}T${String(randInt(rng, 8, 17)).padStart(2, '0')}:${String(randInt(rng, 0, 59)).padStart(2, '0')}:00.${String(randInt(rng, 100, 999))}`;
      const template: SandboxTemplate = {
        IPTemplateID: uuid(rng),
        CompanyID: 118_204,
        TemplateName: spec.name,
        InvTemplateNo: spec.form,
        InvSeries: `${spec.form}${orgSeries}`,
        OrgInvSeries: orgSeries,
        TemplateType: spec.ticket ? 5 : Number(spec.form),
        InvoiceType: spec.ticket ? 5 : Number(spec.form),
        BusinessAreas: spec.petrol ? 2 : spec.letter === 'M' ? 3 : 1,
        SortOrder: ++sort,
        SignedDate: null,
        Inactive: spec.inactive || (year < currentYear && rng() < 0.3),
        CreatedDate: created,
        CreatedBy: null,
        ModifiedDate: created.replace(/^\d{4}-12/, `${year}-01`),
        ModifiedBy: null,
        TemplateContent: null,
        DefaultTemplateID: uuid(rng),
        IsCustomTemplate: rng() < 0.25,
        XsltVersion: null,
        IsInheritFromOldTemplate: spec.old,
        IsSendSummary: spec.letter === 'M' ? false : rng() < 0.1,
        IsPetrol: spec.petrol ? true : spec.ticket ? null : false,
        IsPublished: !spec.inactive,
        IsPublishedPetrol: spec.petrol,
        IsTemplatePetrol: null,
        IsMoreVATRate: spec.moreVat ? true : spec.ticket ? null : false,
        MappingConfigVat: null,
        ExpireDateType: null,
      };
      out.push({ year, withCode: spec.withCode, ticket: spec.ticket, template });
    }
  }
  return out;
}

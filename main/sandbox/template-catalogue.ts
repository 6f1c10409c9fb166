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

const TEMPLATE_SPECS: readonly TemplateSpec[] = [
  {
    form: '1',
    withCode: true,
    letter: 'T',
    suffix: 'AA',
    name: 'Hóa đơn giá trị gia tăng',
    ticket: false,
    inactive: false,
    moreVat: false,
    petrol: false,
    old: false,
  },
  {
    form: '1',
    withCode: true,
    letter: 'T',
    suffix: 'BH',
    name: 'Hóa đơn GTGT nhiều thuế suất',
    ticket: false,
    inactive: false,
    moreVat: true,
    petrol: false,
    old: false,
  },
  {
    form: '1',
    withCode: true,
    letter: 'T',
    suffix: 'XD',
    name: 'Hóa đơn GTGT xăng dầu',
    ticket: false,
    inactive: true,
    moreVat: false,
    petrol: true,
    old: true,
  },
  {
    form: '1',
    withCode: true,
    letter: 'M',
    suffix: 'AA',
    name: 'Hóa đơn GTGT khởi tạo từ máy tính tiền',
    ticket: false,
    inactive: false,
    moreVat: false,
    petrol: false,
    old: false,
  },
  { form: '2', withCode: true, letter: 'T', suffix: 'BB', name: 'Hóa đơn bán hàng', ticket: false, inactive: false, moreVat: false, petrol: false, old: false },
  {
    form: '1',
    withCode: false,
    letter: 'T',
    suffix: 'AA',
    name: 'Hóa đơn giá trị gia tăng',
    ticket: false,
    inactive: false,
    moreVat: false,
    petrol: false,
    old: false,
  },
  {
    form: '1',
    withCode: false,
    letter: 'T',
    suffix: 'DL',
    name: 'Hóa đơn GTGT nhiều thuế suất',
    ticket: false,
    inactive: false,
    moreVat: true,
    petrol: false,
    old: false,
  },
  { form: '2', withCode: false, letter: 'T', suffix: 'CC', name: 'Hóa đơn bán hàng', ticket: false, inactive: true, moreVat: false, petrol: false, old: true },
  {
    form: '5',
    withCode: true,
    letter: 'T',
    suffix: 'VE',
    name: 'Vé điện tử xe khách',
    ticket: true,
    inactive: false,
    moreVat: false,
    petrol: false,
    old: false,
  },
  {
    form: '5',
    withCode: false,
    letter: 'T',
    suffix: 'VX',
    name: 'Vé điện tử tham quan',
    ticket: true,
    inactive: false,
    moreVat: false,
    petrol: false,
    old: false,
  },
  {
    form: '5',
    withCode: false,
    letter: 'T',
    suffix: 'VC',
    name: 'Vé điện tử (mẫu cũ)',
    ticket: true,
    inactive: true,
    moreVat: false,
    petrol: false,
    old: true,
  },
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

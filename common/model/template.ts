import { z } from 'zod';
import { WireFlag, WireInteger, WireText } from './wire';

/**
 * InvoiceTemplateData (docs/service.md#invoicetemplatedata): element of the List templates result. The documented
 * fields plus the extra fields of the sample (their meaning is not shown, so they are all
 * optional and nullable). Anything else passes through untouched.
 */
export const InvoiceTemplateSchema = z.looseObject({
  IPTemplateID: z.string(),
  TemplateName: WireText,
  InvSeries: z.string(),
  Inactive: WireFlag,
  IsInheritFromOldTemplate: WireFlag,
  IsSendSummary: WireFlag,
  IsPetrol: WireFlag,
  IsMoreVATRate: WireFlag,
  // Extra fields seen in the sample result elements.
  CompanyID: WireInteger.nullish(),
  InvTemplateNo: WireText,
  OrgInvSeries: WireText,
  TemplateType: WireInteger.nullish(),
  InvoiceType: WireInteger.nullish(),
  BusinessAreas: WireInteger.nullish(),
  SortOrder: WireInteger.nullish(),
  SignedDate: WireText,
  CreatedDate: WireText,
  CreatedBy: WireText,
  ModifiedDate: WireText,
  ModifiedBy: WireText,
  TemplateContent: WireText,
  DefaultTemplateID: WireText,
  IsCustomTemplate: WireFlag,
  XsltVersion: WireText,
  IsPublished: WireFlag,
  IsPublishedPetrol: WireFlag,
  IsTemplatePetrol: WireFlag,
  MappingConfigVat: z.unknown().optional(),
  ExpireDateType: z.unknown().optional(),
});
export type InvoiceTemplate = z.infer<typeof InvoiceTemplateSchema>;

import { z } from 'zod';
import { call } from './define';
import { BilingualSchema } from '../model/text';

export const CatalogueItemSchema = z.object({
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  /** Decimal string. */
  price: z.string(),
  vatRate: z.string(),
  uses: z.number().int(),
});
export const CatalogueBuyerSchema = z.object({
  taxCode: z.string(),
  legalName: z.string(),
  address: z.string(),
  contact: z.string(),
  email: z.string(),
  phone: z.string(),
  code: z.string(),
  uses: z.number().int(),
});
export type CatalogueItem = z.infer<typeof CatalogueItemSchema>;
export type CatalogueBuyer = z.infer<typeof CatalogueBuyerSchema>;

export const CatalogueKindSchema = z.enum(['items', 'buyers']);

export const cataloguesCalls = {
  'catalogues.items': call(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(100).optional() }).strict(),
    z.object({ items: z.array(CatalogueItemSchema) }),
  ),
  'catalogues.buyers': call(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(100).optional() }).strict(),
    z.object({ buyers: z.array(CatalogueBuyerSchema) }),
  ),
  /** CSV text with a header row (see README): items `code,name,unit,price,vat`; buyers `taxCode,legalName,address,contact,email,phone,code`. */
  'catalogues.importCsv': call(
    z.object({ kind: CatalogueKindSchema, csv: z.string().max(20 * 1024 * 1024) }).strict(),
    z.object({
      imported: z.number().int(),
      skipped: z.number().int(),
      problems: z.array(z.object({ row: z.number().int(), message: BilingualSchema })),
    }),
  ),
} as const;

export const cataloguesEvents = {} as const;

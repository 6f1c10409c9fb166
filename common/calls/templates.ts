import { z } from 'zod';
import { ErrorPayloadSchema } from '../errors';
import { call } from './define';

export const CachedTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  series: z.string(),
  inactive: z.boolean(),
  withCode: z.boolean(),
  ticket: z.boolean(),
  year: z.number().int(),
  isMoreVATRate: z.boolean(),
  isPetrol: z.boolean(),
  isSendSummary: z.boolean(),
  isInheritFromOldTemplate: z.boolean().nullable(),
  /** The template as the service sent it (unknown fields included). */
  raw: z.record(z.string(), z.unknown()),
});
export type CachedTemplate = z.infer<typeof CachedTemplateSchema>;

export const TemplatesListSchema = z.object({
  profileId: z.string(),
  templates: z.array(CachedTemplateSchema),
  /** When the cache was last filled from the service; null = never. */
  fetchedAt: z.string().nullable(),
  /** Set when a refresh was asked for and failed (the cache is still returned). */
  error: ErrorPayloadSchema.nullable(),
});
export type TemplatesList = z.infer<typeof TemplatesListSchema>;

export const templatesCalls = {
  'templates.list': call(
    z
      .object({
        /** Fetch from the service first (when reachable); the cache answers otherwise. */
        refresh: z.boolean().optional(),
        year: z.number().int().min(2000).max(9999).optional(),
      })
      .strict(),
    TemplatesListSchema,
  ),
} as const;

export const templatesEvents = {
  'templates.changed': z.object({ profileId: z.string(), fetchedAt: z.string() }),
} as const;

import { z } from 'zod';
import { ErrorPayloadSchema } from '../errors';
import { call, noInput } from './define';

export const ProfileKindSchema = z.enum(['sandbox', 'test', 'production', 'custom']);

export const ProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: ProfileKindSchema,
  /** Null for the built-in Sandbox (it runs on this computer at an address chosen at start). */
  baseUrl: z.string().nullable(),
  tokenUrl: z.string().nullable(),
  builtin: z.boolean(),
  active: z.boolean(),
});
export type ProfileView = z.infer<typeof ProfileSchema>;

const ProfileListSchema = z.object({ profiles: z.array(ProfileSchema), activeId: z.string() });

const urlField = z.string().trim().max(2000);

export const profilesCalls = {
  'profiles.list': call(noInput, ProfileListSchema),
  /** kind test/production fill the public preset addresses unless given; custom needs baseUrl. */
  'profiles.add': call(
    z
      .object({
        name: z.string().max(200),
        kind: z.enum(['test', 'production', 'custom']),
        baseUrl: urlField.nullable().optional(),
        tokenUrl: urlField.nullable().optional(),
      })
      .strict(),
    ProfileSchema,
  ),
  'profiles.update': call(
    z
      .object({
        id: z.string().min(1),
        name: z.string().max(200).optional(),
        baseUrl: urlField.nullable().optional(),
        tokenUrl: urlField.nullable().optional(),
      })
      .strict(),
    ProfileSchema.extend({
      /** The edit moved the profile to another scheme, host or port: it was signed out and its remembered password forgotten. */
      signedOutByOriginChange: z.boolean(),
    }),
  ),
  'profiles.remove': call(z.object({ id: z.string().min(1) }).strict(), ProfileListSchema),
  'profiles.activate': call(z.object({ id: z.string().min(1) }).strict(), ProfileListSchema),
  /** Reaches the profile's service with its sign-in and lists the templates it offers. */
  'profiles.test': call(
    z.object({ id: z.string().min(1) }).strict(),
    z.object({
      ok: z.boolean(),
      reachable: z.boolean(),
      /** A few fields of each template, for a quick look (the Templates area shows them all). */
      templates: z.array(z.object({ series: z.string(), name: z.string() })),
      error: ErrorPayloadSchema.nullable(),
    }),
  ),
  /** Starts or stops the built-in sandbox service (to try the app offline, e.g. in training). */
  'profiles.sandbox': call(z.object({ running: z.boolean().optional() }).strict(), z.object({ running: z.boolean(), baseUrl: z.string().nullable() })),
} as const;

export const profilesEvents = {
  'profiles.changed': ProfileListSchema,
} as const;

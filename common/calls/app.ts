import { z } from 'zod';
import { call, noInput } from './define';

export const ConnectionKindSchema = z.enum(['sandbox', 'test', 'production', 'custom']);
export type ConnectionKind = z.infer<typeof ConnectionKindSchema>;

export const appCalls = {
  'app.info': call(
    noInput,
    z.object({
      version: z.string(),
      dataDir: z.string(),
      connectionKind: ConnectionKindSchema,
      host: z.enum(['electron', 'browser', 'cli']),
      /** The latest `app.online` state, so a window that opens late starts right. */
      online: z.boolean(),
    }),
  ),
} as const;

export const appEvents = {
  'app.online': z.object({
    online: z.boolean(),
    /** ISO timestamp of the check that decided it. */
    checkedAt: z.string(),
  }),
} as const;

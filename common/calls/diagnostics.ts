import { z } from 'zod';
import { call } from './define';

export const diagnosticsCalls = {
  /** Writes a zip of the logs and version facts, with no secret in it, and says where. */
  'diagnostics.export': call(z.object({}).strict(), z.object({ path: z.string(), bytes: z.number().int().nonnegative(), files: z.array(z.string()) })),
} as const;

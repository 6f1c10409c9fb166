import { z } from 'zod';
import { InvoiceKindSchema } from '../model/kind';
import { call, noInput } from './define';

/** One kind of sample invoice the built-in Sandbox holds. */
export const SandboxSampleGroupSchema = z.object({
  kind: InvoiceKindSchema,
  ids: z.array(z.string()),
});
export type SandboxSampleGroup = z.infer<typeof SandboxSampleGroupSchema>;

export const SandboxSamplesSchema = z.object({
  baseUrl: z.string(),
  /** The simulator's published sample sign-in (the same on every computer; not a shop's secret). */
  login: z.object({ appId: z.string(), taxCode: z.string(), userName: z.string(), password: z.string() }),
  groups: z.array(SandboxSampleGroupSchema),
});
export type SandboxSamples = z.infer<typeof SandboxSamplesSchema>;

export const sandboxCalls = {
  /**
   * What a trainee needs to try every screen on the built-in Sandbox: its address, its sample
   * sign-in and real TransactionIDs of each kind. Answers only while the Sandbox is the active
   * connection.
   */
  'sandbox.samples': call(noInput, SandboxSamplesSchema),
} as const;

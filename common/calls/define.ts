import { z } from 'zod';
import { BilingualSchema } from '../model/text';

/** One contract call: the request the receiver parses, the response the receiver parses before it answers. */
export const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

/** A call that takes no input. */
export const noInput = z.object({}).strict();

/**
 * What every queue entry (an email to send, an invoice to issue) records about its attempts: the
 * service's error, whether trying again can help, when it is due next, when it was queued and changed.
 */
export const attemptFields = {
  errorCode: z.string().nullable(),
  lastError: BilingualSchema.nullable(),
  /** For failed entries: whether sending again can help without changing anything. */
  retryable: z.boolean(),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

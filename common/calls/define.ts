import { z } from 'zod';

/** One contract call: the request the receiver parses, the response the caller parses. */
export const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

/** A call that takes no input. */
export const noInput = z.object({}).strict();

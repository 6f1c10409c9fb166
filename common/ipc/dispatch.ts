import { AppError, INTERNAL_ERROR, issuesFromZod, validationError } from '../errors';
import { calls, isCallName, type CallName, type CallResponse, type ParsedRequest } from '../contract';
import type { CallResult } from './result';

/** Where a call came from; hosts fill it, services may use it (e.g. to open a dialog). */
export interface CallContext {
  host: 'electron' | 'browser' | 'cli';
}

export type ContractHandlers = {
  [N in CallName]: (request: ParsedRequest<N>, ctx: CallContext) => Promise<CallResponse<N>> | CallResponse<N>;
};

export type Dispatch = (name: unknown, request: unknown, ctx: CallContext) => Promise<CallResult>;

/**
 * The one place a contract call is executed, whatever the transport: the name is checked, the
 * request parsed with its schema (a renderer is untrusted input), the handler run, and any
 * failure turned into `{code, message}` without a stack trace.
 */
export function createDispatch(handlers: ContractHandlers, onUnexpected: (name: string, error: unknown) => void = () => {}): Dispatch {
  return async (name, request, ctx) => {
    if (!isCallName(name)) {
      return {
        ok: false,
        error: {
          code: 'unknown_call',
          message: `There is no call named ${JSON.stringify(String(name))}.`,
          messageVi: `Không có lệnh gọi tên ${JSON.stringify(String(name))}.`,
        },
      };
    }
    const parsed = calls[name].request.safeParse(request ?? {});
    if (!parsed.success) return { ok: false, error: validationError(issuesFromZod(parsed.error)).toPayload() };
    try {
      const handler = handlers[name] as (req: unknown, ctx: CallContext) => unknown;
      const value = calls[name].response.parse(await handler(parsed.data, ctx));
      return { ok: true, value } as CallResult;
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error: error.toPayload() };
      onUnexpected(name, error);
      return { ok: false, error: INTERNAL_ERROR };
    }
  };
}

import type { ErrorPayload } from '../errors';
import type { CallName, CallResponse } from '../contract';

/** What every transport carries back for a call: a value or a plain error, never a throw. */
export type CallResult<N extends CallName = CallName> = { ok: true; value: CallResponse<N> } | { ok: false; error: ErrorPayload };

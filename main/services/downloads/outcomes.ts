import type { Bilingual } from '../../../common/model';
import { TRANSIENT_KINDS, type ApiError } from '../api/errors';
import type { ItemOutcome, ItemRow } from './repository';

/** What the engine writes for an item that did not make it, and when a failed call is worth another round. */

/** Thrown inside the engine when the service refused the sign-in: the whole job stops. */
export class AuthStop extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** Worth another round: the kinds the client retries (a broken answer included), but not a 404/501. */
export function transient(error: ApiError): boolean {
  if (!TRANSIENT_KINDS.has(error.kind)) return false;
  return !(error.kind === 'unavailable' && (error.httpStatus === 404 || error.httpStatus === 501));
}

export function message(en: string, vi: string): Bilingual {
  return { en, vi };
}

export function failure(item: ItemRow, errorCode: string, text: Bilingual, attempt = true): ItemOutcome {
  return { seq: item.seq, status: 'failed', errorCode, message: text, attempt };
}

export function apiFailure(item: ItemRow, error: ApiError): ItemOutcome {
  const code = error.serviceCode ?? `api.${error.kind}`;
  return failure(item, code, message(error.message, error.messageVi));
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

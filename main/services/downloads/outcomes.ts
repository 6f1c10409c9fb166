import type { Bilingual } from '../../../common/model';
import { isAuthCode } from '../../../common/envelope';
import { isApiError, TRANSIENT_KINDS, type ApiError } from '../api/errors';
import type { ItemOutcome, ItemRow } from './repository';
import { ZipRefused } from './zip';

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

/**
 * Runs one batch's call with the engine's own rounds on top of the client's retries: a refused
 * sign-in stops the job at once, a transient failure waits (Retry-After or a doubling delay).
 */
export async function withBatchRetries<T>(
  signal: AbortSignal,
  opts: { batchRetries: number; retryDelayMs: number; log?: ((level: 'warn', message: string) => void) | undefined },
  fn: () => Promise<T>,
): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await fn();
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.kind === 'auth' || (error.serviceCode && isAuthCode(error.serviceCode))) throw new AuthStop(error);
      if (signal.aborted || !transient(error) || round >= opts.batchRetries) throw error;
      const wait = Math.max(error.retryAfterMs ?? 0, opts.retryDelayMs * 2 ** round);
      opts.log?.('warn', `download: ${error.kind}, round ${round + 1}/${opts.batchRetries} in ${wait} ms`);
      await sleep(wait, signal);
      if (signal.aborted) throw error;
    }
  }
}

/** What the file system says when an archive's entries collide (a file and a folder of one name). */
const LAYOUT_ERRORS = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'ENOTEMPTY', 'ENAMETOOLONG', 'EINVAL']);

/** The failure of one item whose content could not be written or extracted. */
export function writeFailure(item: ItemRow, error: unknown, unzip: boolean): ItemOutcome {
  if (error instanceof ZipRefused) return failure(item, error.code, message(error.en, error.vi));
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (unzip && code && LAYOUT_ERRORS.has(code)) {
    return failure(
      item,
      'ZipUnwritable',
      message(
        `The archive's entries cannot be laid out as files (${code}); nothing of it was kept.`,
        `Không giải nén được tệp nén thành các tệp (${code}); không giữ lại phần nào.`,
      ),
    );
  }
  return failure(item, code ?? 'WriteFailed', message(`Could not save the file: ${text}`, `Không lưu được tệp: ${text}`));
}

import { formatPath } from '../errors';

export type Severity = 'error' | 'warning';

/** One problem found in a draft: where, what (en + vi), and whether it blocks sending. */
export interface Problem {
  /** e.g. `lines[3].Quantity` (0-based index, see formatPath in common/errors.ts). */
  path: string;
  /** Stable machine code, e.g. `taxCode.format`. */
  code: string;
  message: string;
  messageVi: string;
  severity: Severity;
}

export function problem(path: ReadonlyArray<PropertyKey>, code: string, message: { en: string; vi: string }, severity: Severity = 'error'): Problem {
  return { path: formatPath(path), code, message: message.en, messageVi: message.vi, severity };
}

/** Whether two lists say the same things in the same order: a check that found nothing new leaves the screen as it is. */
export function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((p, i) => {
    const q = b[i]!;
    return p === q || (p.path === q.path && p.code === q.code && p.severity === q.severity && p.message === q.message && p.messageVi === q.messageVi);
  });
}

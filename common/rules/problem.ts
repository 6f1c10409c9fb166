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

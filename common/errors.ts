import { z } from 'zod';
import type { Bilingual } from './model/text';

/** One problem with a piece of input, located by a path such as `lines[3].Quantity`. */
export const IssueSchema = z.object({
  path: z.string(),
  message: z.string(),
  messageVi: z.string(),
  /** The service's own code behind this issue (e.g. `RequireError_InvSeries`), shown small. */
  code: z.string().optional(),
});
export type Issue = z.infer<typeof IssueSchema>;

/** What crosses a process boundary when a call fails: never a stack trace. */
export const ErrorPayloadSchema = z.object({
  code: z.string(),
  message: z.string(),
  messageVi: z.string(),
  issues: z.array(IssueSchema).optional(),
  retryable: z.boolean().optional(),
});
export type ErrorPayload = z.infer<typeof ErrorPayloadSchema>;

/** An error a service throws on purpose; its text is safe to show to a cashier. */
export class AppError extends Error {
  readonly code: string;
  readonly messageVi: string;
  readonly issues?: Issue[];
  readonly retryable?: boolean;

  constructor(code: string, message: Bilingual, extra: { issues?: Issue[]; retryable?: boolean; cause?: unknown } = {}) {
    super(message.en, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'AppError';
    this.code = code;
    this.messageVi = message.vi;
    if (extra.issues) this.issues = extra.issues;
    if (extra.retryable !== undefined) this.retryable = extra.retryable;
  }

  toPayload(): ErrorPayload {
    const payload: ErrorPayload = { code: this.code, message: this.message, messageVi: this.messageVi };
    if (this.issues) payload.issues = this.issues;
    if (this.retryable !== undefined) payload.retryable = this.retryable;
    return payload;
  }
}

/** Turns zod issues into located, bilingual problems. */
export function issuesFromZod(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return {
      path,
      message: `${path || 'request'}: ${issue.message}`,
      messageVi: `${path || 'yêu cầu'}: dữ liệu không hợp lệ (${issue.message})`,
    };
  });
}

/** `['lines', 3, 'Quantity']` → `lines[3].Quantity`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function validationError(issues: Issue[]): AppError {
  return new AppError(
    'validation',
    {
      en: `The request is not valid: ${issues.map((i) => i.message).join('; ')}`,
      vi: `Yêu cầu không hợp lệ: ${issues.map((i) => i.messageVi).join('; ')}`,
    },
    { issues },
  );
}

export const INTERNAL_ERROR: ErrorPayload = {
  code: 'internal',
  message: 'Something went wrong inside the app. Your data is safe; please try again.',
  messageVi: 'Ứng dụng gặp lỗi nội bộ. Dữ liệu của bạn vẫn an toàn; vui lòng thử lại.',
};

/**
 * Log redaction: tokens and email addresses never reach a log line. Pure string work, reusable by
 * any part that logs request details (downloads, email queue, CLI).
 */

const BEARER = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g;
const SECRET_FIELDS = /("?(?:password|access_?token|token|appid|authorization)"?\s*[:=]\s*)(?!(?:Bearer|Basic)\s)("[^"]*"|[^\s,;&}]+)/gi;

/**
 * Replaces bearer tokens, JWTs, email addresses, `password`/`token`/`Authorization`-like fields and
 * every given secret (e.g. the configured token) with placeholders. `keepEmails` keeps the
 * addresses (text stored beside the entry it is about, e.g. an email queue error).
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined | null> = [], options: { keepEmails?: boolean } = {}): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = out.replace(BEARER, '$1 [redacted]').replace(JWT, '[redacted-token]').replace(SECRET_FIELDS, '$1[redacted]');
  return options.keepEmails ? out : out.replace(EMAIL, '[email]');
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** The logger the client takes; compatible with `ServicesConfig.log`. */
export type ApiLogger = (level: 'info' | 'warn' | 'error', message: string) => void;

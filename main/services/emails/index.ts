export { EmailService, DEFAULT_EMAIL_BATCH, type EmailServiceDeps } from './service';
export { EmailSender, type SenderDeps, type SenderSession, type FlushOptions } from './sender';
export { Outbox } from './outbox';
export { type Claim, type ClaimedEntry } from './claims';
export { checkInput, type CleanInput } from './input';
export type { ListQuery } from './entries';
export { judgeItem, isRetryableCode, type Verdict } from './judge';
export { parseEmailCsv, exportEmailCsv, CSV_COLUMNS, type ParsedCsv } from './csv';
export { createEmailsTables } from './schema';

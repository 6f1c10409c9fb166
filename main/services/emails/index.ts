export { EmailService, DEFAULT_EMAIL_BATCH, type EmailServiceDeps } from './service';
export { EmailSender, type SenderDeps, type SenderSession, type FlushOptions } from './sender';
export { Outbox, checkInput, defaultClaimAlive, type Claim, type ClaimedEntry, type CleanInput, type ListQuery } from './outbox';
export { judgeItem, isRetryableCode, type Verdict } from './judge';
export { parseEmailCsv, exportEmailCsv, CSV_COLUMNS, type ParsedCsv } from './csv';
export { createEmailsTables } from './schema';

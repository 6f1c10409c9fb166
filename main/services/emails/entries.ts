import type { SQLInputValue } from 'node:sqlite';
import { EMAIL_STATES, type EmailEntry, type EmailState } from '../../../common/calls/emails';
import type { InvoiceKind } from '../../../common/model';
import type { Recipients } from './input';

/** One `email_outbox` row as SQLite returns it. */
export interface Row {
  id: number;
  profile_id: string;
  transaction_id: string;
  receiver_name: string;
  receiver_email: string;
  cc_email: string;
  bcc_email: string;
  reply_email: string;
  kind: InvoiceKind;
  state: EmailState;
  send_email_status: number | null;
  error_code: string | null;
  retryable: number;
  attempts: number;
  /** '' = due at once. */
  next_attempt_at: string;
  last_error: string | null;
  last_error_vi: string | null;
  claim_token: string | null;
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
  done_at: string | null;
}

/** A time as the table stores it: ISO-8601 text; '' for "at once" (0 ms and earlier). */
export const stamp = (ms: number): string => (ms <= 0 ? '' : new Date(ms).toISOString());

export function recipientsOf(r: Pick<Row, 'receiver_name' | 'receiver_email' | 'cc_email' | 'bcc_email' | 'reply_email'>): Recipients {
  return { receiverName: r.receiver_name, receiverEmail: r.receiver_email, ccEmail: r.cc_email, bccEmail: r.bcc_email, replyEmail: r.reply_email };
}

export function toEntry(r: Row): EmailEntry {
  return {
    id: r.id,
    transactionId: r.transaction_id,
    ...recipientsOf(r),
    kind: r.kind,
    state: r.state,
    sendEmailStatus: r.send_email_status,
    errorCode: r.error_code,
    retryable: r.retryable === 1,
    attempts: r.attempts,
    nextAttemptAt: r.state === 'queued' && r.next_attempt_at !== '' ? r.next_attempt_at : null,
    lastError: r.last_error === null ? null : { en: r.last_error, vi: r.last_error_vi ?? r.last_error },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    doneAt: r.done_at,
  };
}

export interface ListQuery {
  states?: readonly EmailState[] | undefined;
  search?: string | undefined;
  sort?: 'id' | 'transactionId' | 'receiverName' | 'receiverEmail' | 'state' | 'updatedAt' | 'attempts' | 'kind';
  dir?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export const SORT_COLUMNS: Record<NonNullable<ListQuery['sort']>, string> = {
  id: 'id',
  transactionId: 'transaction_id',
  receiverName: 'receiver_name',
  receiverEmail: 'receiver_email',
  state: 'state',
  updatedAt: 'updated_at',
  attempts: 'attempts',
  kind: 'kind',
};

/** The WHERE clause of a list or export: the profile, a state filter and a search over ids, names, addresses and codes. */
export function whereOf(profileId: string, q: Pick<ListQuery, 'states' | 'search'>): { sql: string; params: SQLInputValue[] } {
  const parts = ['profile_id = ?'];
  const params: SQLInputValue[] = [profileId];
  const states = [...new Set(q.states ?? [])];
  if (states.length > 0 && states.length < EMAIL_STATES.length) {
    parts.push(`state IN (${states.map(() => '?').join(', ')})`);
    params.push(...states);
  }
  const search = q.search?.trim();
  if (search) {
    const like = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const columns = ['transaction_id', 'receiver_name', 'receiver_email', 'cc_email', "coalesce(error_code, '')"];
    // LIKE ignores case (ASCII, as lower() does) without a function call per column and row.
    parts.push(`(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    params.push(...columns.map(() => like));
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * An import's statements: which of a list of invoices (a JSON list) have an entry, whether any of a
 * chunk's rows (csv.ts's EncodedRows) has one, and the insert of a chunk's rows as queued entries.
 * The rows come as JSONB (store/jsonb.ts), read by jsonb_each so that `value ->> k` parses nothing.
 */
export const BULK_SQL = {
  known: 'SELECT DISTINCT transaction_id AS tx FROM email_outbox WHERE profile_id = ? AND transaction_id IN (SELECT value FROM json_each(?))',
  anyKnown: 'SELECT 1 AS x FROM email_outbox WHERE profile_id = ? AND transaction_id IN (SELECT value ->> 0 FROM jsonb_each(?)) LIMIT 1',
  insert: `INSERT INTO email_outbox (profile_id, transaction_id, receiver_name, receiver_email, cc_email, bcc_email, reply_email, kind,
             state, next_attempt_at, created_at, updated_at)
           SELECT ?1, r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4, r.value ->> 5, r.value ->> 6, 'queued', '', ?2, ?2
             FROM jsonb_each(?3) AS r ORDER BY r.key
           RETURNING id`,
} as const;

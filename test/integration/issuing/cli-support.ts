import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../common/calls/settings';
import type { IssueEntry } from '../../../common/calls/issuing';
import type { InvoiceData } from '../../../common/model';
import { vietnamToday } from '../../../common/rules/date';
import type { Sandbox } from '../../../main/sandbox';
import { DraftsRepository } from '../../../main/services/drafts/repository';
import { IssuingService } from '../../../main/services/issuing';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { sampleInvoiceData } from '../../support/sandbox-invoice';

/** Today in Vietnam: the sandbox's active series are this year's (`1C26TAA` in 2026). */
export const TODAY = vietnamToday();
const YY = TODAY.slice(2, 4);
export const SERIES = { withCode: `1C${YY}TAA`, withoutCode: `1K${YY}TAA`, cashRegister: `1C${YY}MAA` } as const;

/** A counter sale as one InvoiceData (what `einvoice preview` and `einvoice issue` read): today, 10 % VAT, a fresh RefID. */
export function invoiceData(overrides: Partial<InvoiceData> = {}): InvoiceData {
  const lines = sampleInvoiceData().OriginalInvoiceDetail.map((l) => ({ ...l, VATRateName: '10%' }));
  const data = sampleInvoiceData({ RefID: randomUUID(), InvDate: TODAY, InvSeries: SERIES.withCode, OriginalInvoiceDetail: lines, TotalAmountOC: 0 });
  return { ...data, ...overrides } as InvoiceData;
}

export function writeInvoice(dir: string, name: string, overrides: Partial<InvoiceData> = {}): InvoiceData {
  const data = invoiceData(overrides);
  fs.writeFileSync(path.join(dir, name), JSON.stringify(data, null, 2));
  return data;
}

/** The `items` of `einvoice issue` / `issue-queue` with `--json`. */
export type { IssueItem } from '../../../main/cli/commands/issue-run';

/**
 * The test's own side of the data folder the CLI works on: drafts imported and queued through the
 * app's IssuingService (its runner stopped: the CLI processes do the issuing).
 */
export function openQueueSide(dataDir: string) {
  const store: Store = openDatabase(dataDir);
  const profileId = new ProfileService(store).active().id;
  const drafts = new DraftsRepository(store);
  let settings: Settings = DEFAULT_SETTINGS;
  const issuing = new IssuingService({
    store,
    drafts,
    settings: () => settings,
    activeProfileId: () => profileId,
    gate: { ready: () => new Promise(() => {}), reportAuthFailure: async () => {} },
  });
  void issuing.runner.stop(0);
  return {
    store,
    drafts,
    issuing,
    profileId,
    /** Imports the invoice as a draft and queues it, with these issuing settings. */
    queue(data: InvoiceData, issuingSettings: Partial<Settings['issuing']> = {}): IssueEntry {
      settings = { ...DEFAULT_SETTINGS, issuing: { ...DEFAULT_SETTINGS.issuing, ...issuingSettings } };
      return issuing.queueDraft(drafts.import(data).id);
    },
    rows: (): IssueEntry[] => issuing.queue.list(profileId, { limit: 100_000 }).items,
    /** Answers the service gave to issue requests that refused a RefID it had already issued. */
    duplicateAnswers(): number {
      const row = store.db.prepare("SELECT count(*) AS n FROM issue_exchanges WHERE answer LIKE '%DuplicateInvoiceRefID%'").get() as { n: number };
      return row.n;
    },
    close: () => store.close(),
  };
}

/**
 * The invariants of the issue queue against the sandbox: no RefID recorded twice, nothing the
 * sandbox issued that the queue does not know, every issued row carrying the sandbox's numbers for
 * its RefID, no row left `issuing`, every queued draft still there and locked to its row.
 */
export function checkAgainstSandbox(sb: Sandbox, side: ReturnType<typeof openQueueSide>, expected: number): { doubleIssues: number; rows: IssueEntry[] } {
  const rows = side.rows();
  expect(rows).toHaveLength(expected);
  const byRef = new Map<string, ReturnType<Sandbox['issued']>>();
  for (const i of sb.issued()) byRef.set(i.RefID, [...(byRef.get(i.RefID) ?? []), i]);
  const doubleIssues = [...byRef.values()].filter((l) => l.length > 1).length;
  expect(doubleIssues).toBe(0);
  const mine = new Set(rows.map((r) => r.refId));
  for (const ref of byRef.keys()) expect(mine.has(ref), `the sandbox issued ${ref}, which is not in the queue`).toBe(true);
  for (const r of rows) {
    expect(r.state, `#${r.id}`).not.toBe('issuing');
    const at = byRef.get(r.refId)?.[0];
    if (r.state === 'issued') {
      expect(at, `#${r.id} issued but unknown to the sandbox`).toBeDefined();
      expect({ transactionId: r.transactionId, invNo: r.invNo }).toEqual({ transactionId: at!.TransactionID, invNo: at!.InvNo });
    } else if (r.state === 'queued' || r.state === 'failed') {
      expect(at, `#${r.id} is ${r.state} but the sandbox issued it`).toBeUndefined();
    }
    expect(side.drafts.get(r.draftId!).issue?.id).toBe(r.id);
  }
  return { doubleIssues, rows };
}

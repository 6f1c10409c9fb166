import { SANDBOX_SELLER, type Catalogue, type TemplateEntry } from './data';
import type { InvoiceKind } from '../../common/model/kind';
import { createRng, lookupCode } from './prng';
import { getCI } from './validate';

/** One invoice issued through the API, as tests inspect it (`Sandbox.issued()`). */
export interface SandboxIssued {
  RefID: string;
  TransactionID: string;
  InvNo: string;
  InvSeries: string;
  InvDate: string;
  kind: InvoiceKind;
  /** ISO instant of the sandbox clock when it was recorded. */
  issuedAt: string;
  signType: number;
}

/** How often issue requests carried a RefID (since the last reset) and how often it was recorded (ever: 0 or 1). */
export interface SandboxIssueAttempt {
  RefID: string;
  requests: number;
  recorded: number;
}

/** The sandbox's one signing certificate (get-certificates). */
export interface SandboxCertificate {
  CertificateSN: string;
  TaxCode: string;
  UserName: string;
  AuthOrganizeName: string;
  EffectiveTime: string;
  ExpirationTime: string;
}

export interface IssueRecord extends SandboxIssued {
  issuedMs: number;
  isSendMail: boolean;
  referenceType: number;
}

/** An issue request's claim on the series it touches, from the body being read until the reply is written. */
export interface SeriesHold {
  /** Series that another in-flight issue request already held when this one arrived. */
  readonly conflicts: ReadonlySet<string>;
  release(): void;
}

const DAY_MS = 86_400_000;

/** Issuing state: records, per-series holds, the overlap count, request counts per RefID, the certificate. */
export class IssueLedger {
  readonly certificate: SandboxCertificate;
  private readonly records: IssueRecord[] = [];
  private readonly byId = new Map<string, IssueRecord>();
  private readonly recordedRefs = new Map<string, number>();
  private readonly requestsByRef = new Map<string, number>();
  private readonly held = new Map<string, number>();
  private overlapCount = 0;
  private codeCounter = 0;
  /** `series|number` of originals corrected through the API → the correction's ReferenceType (1 replaced, 2 adjusted). */
  private readonly corrected = new Map<string, number>();

  constructor(
    private readonly seed: number,
    private readonly cat: Catalogue,
    private readonly templates: readonly TemplateEntry[],
    startDate: Date,
  ) {
    const rng = createRng(`certificate:${seed}`);
    let sn = '';
    for (let i = 0; i < 32; i++) sn += '0123456789ABCDEF'[Math.floor(rng() * 16)];
    const start = Math.floor(startDate.getTime() / DAY_MS) * DAY_MS;
    this.certificate = {
      CertificateSN: sn,
      TaxCode: SANDBOX_SELLER.taxCode,
      UserName: SANDBOX_SELLER.name,
      AuthOrganizeName: 'MISA CA',
      EffectiveTime: new Date(start - 180 * DAY_MS).toISOString(),
      ExpirationTime: new Date(start + 365 * DAY_MS).toISOString(),
    };
  }

  /**
   * The series an invoice names, as the active template holding it spells it (7 characters):
   * the full `1C26TAA`, or the six-character `C26TAA` of a template's OrgInvSeries.
   */
  resolveSeries(raw: unknown): string | undefined {
    if (typeof raw !== 'string') return undefined;
    const s = raw.trim().toUpperCase();
    const hit = this.templates.find((t) => !t.template.Inactive && (t.template.InvSeries === s || t.template.OrgInvSeries === s));
    return hit?.template.InvSeries;
  }

  /** Called once an issue request's body is read: counts its RefIDs and claims its series. */
  enter(body: unknown): SeriesHold {
    const items = getCI(body, 'InvoiceData');
    const series = new Set<string>();
    const refs = new Set<string>();
    if (Array.isArray(items)) {
      for (const item of items) {
        const raw = getCI(item, 'InvSeries');
        const s = this.resolveSeries(raw) ?? (typeof raw === 'string' ? raw.trim().toUpperCase() : '');
        if (s) series.add(s);
        const ref = getCI(item, 'RefID');
        if (typeof ref === 'string' && ref) refs.add(ref);
      }
    }
    for (const ref of refs) this.requestsByRef.set(ref, (this.requestsByRef.get(ref) ?? 0) + 1);
    const conflicts = new Set<string>();
    for (const s of series) {
      const n = this.held.get(s) ?? 0;
      if (n > 0) conflicts.add(s);
      this.held.set(s, n + 1);
    }
    let released = false;
    return {
      conflicts,
      release: () => {
        if (released) return;
        released = true;
        for (const s of series) {
          const n = (this.held.get(s) ?? 1) - 1;
          if (n > 0) this.held.set(s, n);
          else this.held.delete(s);
        }
      },
    };
  }

  countOverlap(): void {
    this.overlapCount++;
  }

  get overlaps(): number {
    return this.overlapCount;
  }

  get count(): number {
    return this.records.length;
  }

  /** A fresh lookup code, unique in the catalogue, deterministic from the seed and a counter. */
  nextTransactionId(): string {
    for (;;) {
      const code = lookupCode(createRng(`issue:${this.seed}:${++this.codeCounter}`));
      if (!this.cat.kindOf(code)) return code;
    }
  }

  record(rec: IssueRecord): void {
    this.records.push(rec);
    this.byId.set(rec.TransactionID, rec);
    this.recordedRefs.set(rec.RefID, (this.recordedRefs.get(rec.RefID) ?? 0) + 1);
  }

  /** A replacement (1) or adjustment (2) was issued for the invoice `series` (7 characters) number `invNo`. */
  markCorrected(series: string, invNo: string, referenceType: number): void {
    this.corrected.set(`${series.toUpperCase()}|${invNo.padStart(8, '0')}`, referenceType);
  }

  /** How the invoice was corrected since (1 replaced, 2 adjusted), if it was. */
  correctedAs(series: string, invNo: string | undefined): number | undefined {
    return invNo ? this.corrected.get(`${series.toUpperCase()}|${invNo.padStart(8, '0')}`) : undefined;
  }

  recordOf(transactionId: string): IssueRecord | undefined {
    return this.byId.get(transactionId);
  }

  issued(): SandboxIssued[] {
    return this.records.map(({ RefID, TransactionID, InvNo, InvSeries, InvDate, kind, issuedAt, signType }) => ({
      RefID,
      TransactionID,
      InvNo,
      InvSeries,
      InvDate,
      kind,
      issuedAt,
      signType,
    }));
  }

  attempts(refId?: string): SandboxIssueAttempt[] {
    const refs = refId === undefined ? new Set([...this.requestsByRef.keys(), ...this.recordedRefs.keys()]) : [refId];
    const out: SandboxIssueAttempt[] = [];
    for (const ref of refs) {
      const requests = this.requestsByRef.get(ref) ?? 0;
      const recorded = this.recordedRefs.get(ref) ?? 0;
      if (requests > 0 || recorded > 0) out.push({ RefID: ref, requests, recorded });
    }
    return out;
  }

  /** Reset: forgets the request counts and the overlap count; issued invoices and numbering stay. */
  clearLogs(): void {
    this.requestsByRef.clear();
    this.overlapCount = 0;
  }
}

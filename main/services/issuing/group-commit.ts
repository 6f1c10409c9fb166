import type { IssueClaim, IssueQueue } from './queue';

type Work = () => IssueClaim | null;

/**
 * The lanes' claims and settlements that come due together go into one transaction: one commit
 * (one fsync) for all of them instead of one each. Each keeps its own savepoint, so one that
 * fails is undone alone and its lane hears of it.
 */
export class GroupCommit {
  private readonly pending: Array<{ work: Work; resolve: (c: IssueClaim | null) => void; reject: (e: unknown) => void }> = [];

  constructor(private readonly queue: Pick<IssueQueue, 'together'>) {}

  run(work: Work): Promise<IssueClaim | null> {
    return new Promise((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const batch = this.pending.splice(0);
    const results: Array<{ ok: true; claim: IssueClaim | null } | { ok: false; error: unknown }> = [];
    try {
      this.queue.together(() => {
        for (const c of batch) {
          try {
            results.push({ ok: true, claim: c.work() });
          } catch (error) {
            results.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const c of batch) c.reject(error);
      return;
    }
    batch.forEach((c, i) => {
      const r = results[i]!;
      if (r.ok) c.resolve(r.claim);
      else c.reject(r.error);
    });
  }
}

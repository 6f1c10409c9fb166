export interface GroupCommitOptions {
  /** How many lanes are about to join (their request is out): the commit waits for them… */
  expected?: () => number;
  /** …but no longer than this after the first piece came (ms). */
  maxWaitMs?: () => number;
}

/**
 * Work of several lanes that comes due together goes into one transaction: one commit (one fsync)
 * for all of it instead of one each. Each piece keeps its own savepoint (nested `store.transaction`),
 * so one that fails is undone alone and its lane hears of it; the results are handed out only
 * after the commit, so nothing acts on a write that is not durable yet. With `expected`, a commit
 * waits a moment for the lanes whose answers are about to come, so the lanes keep sharing commits
 * instead of falling into turns of their own.
 */
export class GroupCommit<T> {
  private readonly pending: Array<{ work: () => T; resolve: (value: T) => void; reject: (e: unknown) => void }> = [];
  private turn: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstAt = 0;

  /** `together(fn)` runs `fn` in one write transaction (Store.transaction). */
  constructor(
    private readonly together: (fn: () => void) => void,
    private readonly options: GroupCommitOptions = {},
  ) {}

  run(work: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) this.firstAt = performance.now();
      this.pending.push({ work, resolve, reject });
      this.soon();
    });
  }

  /** A lane the commit may be waiting for will not join (it ended): look again. */
  poke(): void {
    if (this.pending.length > 0) this.soon();
  }

  private soon(): void {
    this.turn ??= setImmediate(() => {
      this.turn = undefined;
      this.maybeCommit();
    });
  }

  private maybeCommit(): void {
    if (this.pending.length === 0) return;
    const waited = performance.now() - this.firstAt;
    const maxWaitMs = this.options.maxWaitMs?.() ?? 0;
    if ((this.options.expected?.() ?? 0) > 0 && waited < maxWaitMs) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.commit();
      }, maxWaitMs - waited);
      return;
    }
    this.commit();
  }

  private commit(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const results: Array<{ ok: true; value: T } | { ok: false; error: unknown }> = [];
    try {
      this.together(() => {
        for (const c of batch) {
          try {
            results.push({ ok: true, value: c.work() });
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
      if (r.ok) c.resolve(r.value);
      else c.reject(r.error);
    });
  }
}

/**
 * Work of several lanes that comes due together goes into one transaction: one commit (one fsync)
 * for all of it instead of one each. Each piece keeps its own savepoint (nested `store.transaction`),
 * so one that fails is undone alone and its lane hears of it; the results are handed out only
 * after the commit, so nothing acts on a write that is not durable yet. A commit never waits for
 * lanes still out: it takes what is due at the next turn of the event loop, and what comes due while
 * a commit runs (answers arriving during its fsync) goes into the next one, so the slower the
 * commits the more each one carries, while the requests out keep the service busy meanwhile.
 */
export class GroupCommit<T> {
  private readonly pending: Array<{ work: () => T; resolve: (value: T) => void; reject: (e: unknown) => void }> = [];
  private turn: NodeJS.Immediate | undefined;

  /** `together(fn)` runs `fn` in one write transaction (Store.transaction). */
  constructor(private readonly together: (fn: () => void) => void) {}

  run(work: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
      this.turn ??= setImmediate(() => {
        this.turn = undefined;
        this.commit();
      });
    });
  }

  private commit(): void {
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

/**
 * One pass of some background work at a time: asking for a pass while one runs makes it run once
 * more after it (with the options `merge` keeps; by default the running pass's) and shares its promise.
 */
export class Passes<O> {
  private running: Promise<void> | null = null;
  private again = false;
  private options: O | undefined;

  constructor(
    private readonly pass: (options: O) => Promise<void>,
    private readonly hooks: {
      stopped: () => boolean;
      /** The options of the next pass when one is asked for while another runs. */
      merge?: (running: O, asked: O) => O;
      /** A pass that threw (unless stopping); without it the error reaches the callers. */
      onError?: (error: unknown) => void;
      /** After the last pass of a run. */
      onEnd?: () => void;
    },
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** The run in progress, if any. */
  get current(): Promise<void> | null {
    return this.running;
  }

  run(options: O): Promise<void> {
    if (this.hooks.stopped()) return Promise.resolve();
    if (this.running) {
      this.again = true;
      if (this.hooks.merge) this.options = this.hooks.merge(this.options as O, options);
      return this.running;
    }
    this.options = options;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass(this.options as O);
        } while (this.again && !this.hooks.stopped());
      } catch (error) {
        if (!this.hooks.onError) throw error;
        if (!this.hooks.stopped()) this.hooks.onError(error);
      } finally {
        this.running = null;
        this.hooks.onEnd?.();
      }
    })();
    return this.running;
  }
}

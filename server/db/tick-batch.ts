/**
 * One statement per turn of the event loop for writes many requests make at once (replay records,
 * polls' signs of life, hand-out records): a burst of 100 slave polls answered in one turn costs
 * one round trip and one plan instead of 100. Each caller gets its own result from the batch; a
 * failing batch fails every caller in it (nothing is silently dropped).
 */

/** Runs a batch: one result per item, in the items' order. */
export type BatchRunner<I, O> = (items: I[]) => Promise<O[]>;

/**
 * Collects the items added during one turn of the event loop and runs them together on the next
 * (setImmediate: after the I/O callbacks of this turn, so every request read in it has joined).
 * `maxItems` bounds one statement's size (a larger burst is split). `windowMs` > 0: the items of
 * that many ms are collected instead of one turn's — for writes nobody waits for (PGlite's replay
 * records, bridge/replay-cache.ts), so requests spread over time still share a statement.
 */
export class TickBatcher<I, O> {
  private pending: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly run: BatchRunner<I, O>,
    private readonly maxItems = 1_000,
    private readonly windowMs = 0,
  ) {}

  /** Adds `item` to this turn's batch; resolves with its result, rejects with the batch's error. */
  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        if (this.windowMs > 0) setTimeout(() => this.flush(), this.windowMs);
        else setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += this.maxItems) {
      const part = all.slice(i, i + this.maxItems);
      this.run(part.map((p) => p.item)).then(
        (out) => {
          if (out.length !== part.length) {
            const err = new Error(`batch returned ${out.length} results for ${part.length} items`);
            for (const p of part) p.reject(err);
            return;
          }
          part.forEach((p, j) => p.resolve(out[j] as O));
        },
        (err: unknown) => {
          for (const p of part) p.reject(err);
        },
      );
    }
  }
}

/**
 * Group commit of slave execution reports (issue 15, goals 1–4). A signal to N slaves comes back as
 * N reports within milliseconds; applied one transaction each, a report cost about nine statements
 * (begin, order, signal lock, link, outcome, link write, completion, audit, commit) and most of the
 * database's CPU per copied order. The batcher keeps one lane per tenant: a report that finds its
 * lane idle starts a transaction on the next turn of the event loop (with every report read in
 * this turn; a lone report waits for no batch window); reports arriving while that transaction
 * runs wait, and the next transaction takes all of them (up to
 * `maxBatch`) and applies them with one statement per step (apply-report.ts applyReportBatch).
 *
 * Each caller's promise settles after the commit with its own answer or error (a 404 or 409 of one
 * report settles only that report). A report the batch defers (its order already in the batch, or
 * behind a CLOSE_ALL) stays at the head of the lane for the next transaction. When the transaction
 * itself fails, a batch of several is run again one report per transaction, so one report's
 * unforeseen failure never fails the others; a lone report's failure is its own.
 */
import type { Db } from "../../db/client.ts";
import { transactionOpenedWith } from "../../db/opened-transaction.ts";

/** A job's settlement by a batch run; `deferred`: run it again in the next batch. */
export type Settlement<O> = { ok: true; value: O } | { ok: false; error: unknown } | "deferred";

/** Runs one batch of a tenant's jobs inside `tx`: one settlement per job, in the jobs' order; never defers the first. */
export type BatchWork<J, O> = (tx: Db, tenantId: string, jobs: J[]) => Promise<Settlement<O>[]>;

interface Waiting<J, O> {
  job: J;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

/** Most reports in one transaction by default. */
export const DEFAULT_REPORT_BATCH = 128;

/** Per-tenant group commit of jobs over one database (see the file's comment). */
export class ReportBatcher<J, O> {
  private readonly lanes = new Map<string, Waiting<J, O>[]>();

  constructor(
    private readonly db: Db,
    private readonly work: BatchWork<J, O>,
    private readonly maxBatch = DEFAULT_REPORT_BATCH,
  ) {}

  /** Queues `job` for `tenantId`; resolves with its answer after the commit, or rejects with its error. */
  submit(tenantId: string, job: J): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const waiting = { job, resolve, reject };
      const lane = this.lanes.get(tenantId);
      if (lane) {
        lane.push(waiting);
        return;
      }
      const fresh = [waiting];
      this.lanes.set(tenantId, fresh);
      // On the next turn: the reports read in this one (a burst from every slave) join the first batch.
      setImmediate(() => void this.drain(tenantId, fresh));
    });
  }

  /** Jobs waiting or running for `tenantId`. */
  pending(tenantId: string): number {
    return this.lanes.get(tenantId)?.length ?? 0;
  }

  /** Runs the lane's batches one after another until it is empty, then forgets the lane. */
  private async drain(tenantId: string, lane: Waiting<J, O>[]): Promise<void> {
    while (lane.length > 0) {
      const batch = lane.slice(0, this.maxBatch);
      const results = await this.run(tenantId, batch);
      // Settled jobs leave the lane; deferred ones stay at its head, in their order.
      const deferred = batch.filter((_, i) => results[i] === "deferred");
      lane.splice(0, batch.length, ...deferred);
      batch.forEach((w, i) => {
        const r = results[i];
        if (r === "deferred" || r === undefined) return;
        if (r.ok) w.resolve(r.value);
        else w.reject(r.error);
      });
      // The first job of a batch is never deferred (BatchWork's contract); if it were, it fails
      // rather than spin.
      if (results[0] === "deferred") lane.shift()?.reject(new Error("a batch deferred its first job"));
    }
    this.lanes.delete(tenantId);
  }

  /** Never throws: one settlement per job (`deferred` only from a batch that committed). */
  private async run(tenantId: string, batch: Waiting<J, O>[]): Promise<Settlement<O>[]> {
    try {
      // BEGIN leaves with the batch's first load (pipelined on PostgreSQL, db/opened-transaction.ts).
      return await transactionOpenedWith(this.db, null, (tx: Db) => this.work(tx, tenantId, batch.map((w) => w.job)));
    } catch (err) {
      if (batch.length === 1) return [{ ok: false, error: err }];
    }
    // The transaction failed: each job again in its own, so only a failing one fails.
    const out: Settlement<O>[] = [];
    for (const w of batch) out.push(...(await this.run(tenantId, [w])));
    return out;
  }
}

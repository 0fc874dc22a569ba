/**
 * Group commit of master signal events (issue 15, goal 3). Events of one tenant are serialised —
 * limits such as maxPositions are checked against a consistent count, and a master's events apply
 * in the order they came — so a tenant's throughput is bounded by how many transactions it can run
 * one after another, each paying a WAL flush. The batcher keeps one lane per tenant: an event that
 * finds its lane idle starts a transaction at once (a lone signal never waits for a batch window);
 * events that arrive while that transaction runs wait in the lane, and the next transaction takes
 * all of them (up to `maxBatch`): ONE begin, ONE tenant lock with the copy pause, the events IN
 * ARRIVAL ORDER (each sees the earlier ones' writes: same transaction), ONE commit. Every caller's
 * promise settles only after the commit — a 201 is never sent for work that is not durable.
 * Within a batch the events of different master tickets overlap (runOverlapped: their loads go
 * out together; those of one ticket, and the records, still one after another); one after another
 * a batch of n events took 2n round trips, about 5 ms per event on a loaded machine.
 * On PostgreSQL the begin and the lock leave with the first event's loads, and a lone event's
 * record with the commit (db/opened-transaction.ts; the pool is pipelined): a lone OPEN is two
 * round trips (lock, leg and slave states; record and commit) where it was five.
 *
 * One event's failure (a 409 for a ticket already open, a 404, a 400) must fail only that event.
 * A batch first runs without savepoints (each costs round trips on every event, and failures are
 * rare); when an event fails in a batch of several, the transaction is rolled back and the batch
 * runs again with a savepoint around each event, so a failing event is rolled back alone and
 * rejects only its caller. A failure of the transaction itself (begin, lock, commit) rejects every
 * caller of the batch: none of their work is durable.
 *
 * The lock is still PostgreSQL's advisory lock per tenant: other instances on the same database,
 * and the emergency / account paths that take it, exclude a batch as they excluded a lone event.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { transactionOpenedWith, type Literal } from "../../db/opened-transaction.ts";
import { tenantSignalLockCall } from "../../db/tenant-signal-lock.ts";
import { SlaveStateCache } from "./store/open-store.ts";

/** What every event of a batch shares, read once at the start of the batch's transaction. */
export interface SignalBatch {
  tenantId: string;
  /**
   * The tenant's copy pause (Pause All), read under the tenant's signal lock. A promise: on
   * PostgreSQL the event's loads are sent behind the lock before it answers (one round trip).
   */
  copyPaused: Promise<boolean>;
  /** Slave states read once per master symbol and kept current as the batch queues opens. */
  slaveStates: SlaveStateCache;
  /** How many events the batch holds (1 for a lone event). */
  size: number;
  /**
   * An event's arrival time as recorded: `at`, or 1 ms after the tenant's previous event when `at`
   * is not later (events arriving in the same millisecond). A slave's orders are claimed
   * `order by created_at, id` and an order's created_at is its event's arrival, so two events of a
   * batch — an OPEN and the MODIFY queued behind it — must never tie: the id would then decide.
   */
  orderedAt(at: Date): Date;
  /**
   * Waits for an event's LAST statement (`last`, just started, not awaited) and, when the batch is
   * that one event on PostgreSQL, commits with it: COMMIT leaves behind the statement, one round
   * trip (db/opened-transaction.ts commitWith). The event must then send no further statement and
   * run nothing that can fail. In a batch of several events it only waits, and the events waiting
   * for this one's statements (`startTurn`, `afterPrevious`) go on at once.
   */
  commitWith<T>(last: Promise<T>): Promise<T>;
  /**
   * Settles once every earlier event of the batch with the same key (the master ticket; every
   * earlier event when either key is unknown) has SENT its last statement (`commitWith`) or ended.
   * An event sends its first statement only after this, so its loads see those events' writes (one
   * connection, statements run in the order sent); events of other tickets load meanwhile.
   */
  startTurn: Promise<void>;
  /**
   * Settles once the batch's previous event has sent its last statement or ended (at once for the
   * first). An event waits for it twice: before it reads the slave states — by then the previous
   * event has counted its opens into `slaveStates` (process-signal.ts counts them as soon as they
   * are planned) — and before it sends its record, so the records (event rows, audit entries) are
   * written in arrival order.
   */
  afterPrevious: Promise<void>;
}

/** One event's work inside the batch's transaction; `tx` may sit inside a savepoint. */
export type SignalWork<T> = (tx: Db, batch: SignalBatch) => Promise<T>;

export interface SignalBatcherOptions {
  /** Most events in one transaction (default 64: PostgreSQL caches 64 subtransaction ids per backend). */
  maxBatch?: number;
  /**
   * Test seam: runs inside the transaction after every event, just before the commit; throwing
   * makes the commit fail (every caller of the batch is rejected with that error).
   */
  beforeCommit?: (tx: Db, batch: SignalBatch) => Promise<void>;
}

interface Job {
  work: SignalWork<unknown>;
  /** Events of one key run one after another within a batch (SignalBatch.startTurn); undefined: after every earlier one. */
  key: string | undefined;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Lane {
  queue: Job[];
}

/** An event failed in a batch run without savepoints: run the batch again with them. */
class RetryWithSavepoints extends Error {}

export const DEFAULT_MAX_BATCH = 64;

/** Per-tenant group commit of signal events over one database (see the file's comment). */
export class SignalBatcher {
  private readonly lanes = new Map<string, Lane>();
  /** Per tenant: the last arrival time handed out by `orderedAt`, epoch ms. */
  private readonly lastArrival = new Map<string, number>();
  private readonly maxBatch: number;

  constructor(
    private readonly db: Db,
    private readonly options: SignalBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
  }

  /**
   * Queues `work` for `tenantId` and resolves with its result once the transaction that ran it has
   * committed. Rejects with the work's own error (only its event rolled back) or with the error
   * that failed the whole transaction (nothing of the batch is stored).
   */
  submit<T>(tenantId: string, work: SignalWork<T>, key?: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = { work, key, resolve: resolve as (value: unknown) => void, reject };
      const lane = this.lanes.get(tenantId);
      if (lane) {
        lane.queue.push(job);
        return;
      }
      const fresh: Lane = { queue: [job] };
      this.lanes.set(tenantId, fresh);
      void this.drain(tenantId, fresh);
    });
  }

  /** See SignalBatch.orderedAt. */
  private orderedAt(tenantId: string, at: Date): Date {
    const previous = this.lastArrival.get(tenantId);
    const ms = previous !== undefined && at.getTime() <= previous ? previous + 1 : at.getTime();
    this.lastArrival.set(tenantId, ms);
    return ms === at.getTime() ? at : new Date(ms);
  }

  /** Events waiting or running for `tenantId` (0 when its lane is idle). */
  pending(tenantId: string): number {
    return this.lanes.get(tenantId)?.queue.length ?? 0;
  }

  /** Runs the lane's batches one after another until it is empty, then forgets the lane. */
  private async drain(tenantId: string, lane: Lane): Promise<void> {
    while (lane.queue.length > 0) {
      // The jobs stay in the queue while their batch runs (pending() counts them).
      const jobs = lane.queue.slice(0, this.maxBatch);
      const results = await this.runBatch(tenantId, jobs);
      lane.queue.splice(0, jobs.length);
      // In arrival order: the callers' continuations (publish, answer) run in the same order.
      jobs.forEach((job, i) => {
        const r = results[i]!;
        if (r.ok) job.resolve(r.value);
        else job.reject(r.error);
      });
    }
    this.lanes.delete(tenantId);
  }

  /** Never throws: one settlement per job. */
  private async runBatch(tenantId: string, jobs: Job[]): Promise<Settled[]> {
    try {
      return await this.attempt(tenantId, jobs, jobs.length > 1 ? "optimistic" : "single");
    } catch (err) {
      if (!(err instanceof RetryWithSavepoints)) return jobs.map(() => ({ ok: false, error: err }));
    }
    try {
      return await this.attempt(tenantId, jobs, "savepoints");
    } catch (err) {
      return jobs.map(() => ({ ok: false, error: err }));
    }
  }

  /**
   * One transaction over `jobs`. `single`: a lone event, its error is the transaction's;
   * `optimistic`: no savepoints, any event's error rolls back and asks for a retry;
   * `savepoints`: each event in its own savepoint, its error settles only that event.
   */
  private attempt(tenantId: string, jobs: Job[], mode: "single" | "optimistic" | "savepoints"): Promise<Settled[]> {
    return transactionOpenedWith(this.db, lockStatement(tenantId), async (tx: Db, opened) => {
      // The test seam runs after the last event, before the commit: no commit with the statement then.
      const lone = mode === "single" && !this.options.beforeCommit;
      const batch: SignalBatch = {
        tenantId,
        copyPaused: opened.first.then((locked) => locked[0]?.copy_paused === true),
        slaveStates: new SlaveStateCache(tenantId),
        size: jobs.length,
        orderedAt: (at) => this.orderedAt(tenantId, at),
        commitWith: lone ? (last) => opened.commitWith(last) : (last) => last,
        startTurn: Promise.resolve(),
        afterPrevious: Promise.resolve(),
      };
      // Read by the events when they plan; never an unhandled rejection when none does (the
      // transaction reports the lock's error).
      batch.copyPaused.catch(() => undefined);
      if (mode !== "savepoints") {
        const results = await runOverlapped(tx, batch, jobs);
        const failed = results.find((r) => !r.ok);
        if (failed) throw mode === "single" ? failed.error : new RetryWithSavepoints();
        if (this.options.beforeCommit) await this.options.beforeCommit(tx, batch);
        return results;
      }
      const results: Settled[] = [];
      for (const job of jobs) {
        await tx.execute(sql.raw("savepoint signal_event"));
        let failure: { error: unknown } | null = null;
        let value: unknown;
        try {
          value = await job.work(tx, batch);
        } catch (error) {
          failure = { error };
        }
        if (failure) {
          // Outside the try: a failed rollback leaves the transaction unusable and must fail the
          // whole batch (never COMMIT a transaction in an aborted state).
          await tx.execute(sql.raw("rollback to savepoint signal_event"));
          batch.slaveStates.reset();
          results.push({ ok: false, error: failure.error });
        } else {
          results.push({ ok: true, value });
        }
        await tx.execute(sql.raw("release savepoint signal_event"));
      }
      if (this.options.beforeCommit) await this.options.beforeCommit(tx, batch);
      return results;
    });
  }
}

/**
 * Runs a batch's events without savepoints, all started at once in arrival order, each event's
 * statements held back by its turns (SignalBatch.startTurn, afterPrevious): an event loads once
 * the earlier events of its ticket have sent their last statement, so it still sees their writes,
 * while events of other tickets load meanwhile; the records leave in arrival order;
 * the in-memory slave states are read in turn, each event's opens counted before the next reads.
 * A batch of n events took 2n round trips one after another. Every event is waited for, so no
 * statement of the batch is in flight when it ends; after an event failed, the batch is rolled
 * back and run again with savepoints (the caller). Never throws: one settlement per event.
 */
function runOverlapped(tx: Db, batch: SignalBatch, jobs: Job[]): Promise<Settled[]> {
  /** Per event: settles once it has sent its last statement or ended. */
  const sentOrEnded: Promise<void>[] = [];
  const runs = jobs.map((job, k) => {
    let sent: () => void = () => undefined;
    const lastSent = new Promise<void>((resolve) => (sent = resolve));
    const sameTicket = jobs.slice(0, k).flatMap((earlier, i) => (job.key === undefined || earlier.key === undefined || earlier.key === job.key ? [sentOrEnded[i]!] : []));
    const own: SignalBatch = {
      ...batch,
      startTurn: Promise.all(sameTicket).then(() => undefined),
      afterPrevious: k === 0 ? Promise.resolve() : sentOrEnded[k - 1]!,
      // A lone event commits with its record; in a batch the events waiting for this one may go on.
      commitWith: (last) => (batch.size === 1 ? batch.commitWith(last) : (sent(), last)),
    };
    const run = (async (): Promise<Settled> => {
      try {
        return { ok: true, value: await job.work(tx, own) };
      } catch (error) {
        return { ok: false, error };
      }
    })();
    sentOrEnded.push(Promise.race([lastSent, run.then(() => undefined)]));
    return run;
  });
  return Promise.all(runs);
}

/**
 * Takes the tenant's signal lock and reads its copy pause: one statement, sent with the
 * transaction's BEGIN (db/opened-transaction.ts), so a batch starts in one round trip.
 */
const lockStatement = (tenantId: string) => (literal: Literal) =>
  `select ${tenantSignalLockCall(literal(tenantId))}, (select copy_paused from tenants where id = ${literal(tenantId)}::uuid) as copy_paused`;

const batchers = new WeakMap<Db, SignalBatcher>();

/** The process's batcher for a database handle (one per `ctx.db`: lanes are per process). */
export function signalBatcherOf(db: Db): SignalBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new SignalBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}

/**
 * Periodic background jobs with database-backed leases (job_leases): a job runs in one instance
 * at a time — whichever holds its lease — so several servers on one PostgreSQL do not duplicate
 * work. A job never overlaps itself; a failure is logged and the job runs again next period.
 * A lease lasts three periods (at least 15 s) and is renewed once half of it has passed. An
 * instance that stops gives its leases back: otherwise the next instance would wait out up to
 * three hours before the hourly retention runs.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { jobLeases } from "../db/schema.ts";

export interface Job {
  name: string;
  intervalMs: number;
  run(): Promise<void>;
}

export class JobRunner {
  private readonly owner = randomUUID();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly log: (msg: string, err?: unknown) => void = (msg, err) => console.error(msg, err),
  ) {}

  /** Takes or renews the lease of `name` for `ms`; true when this instance holds it. */
  async acquire(name: string, ms: number): Promise<boolean> {
    const until = new Date(Date.now() + ms);
    const rows = await this.db
      .insert(jobLeases)
      .values({ name, owner: this.owner, leaseUntil: until })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { owner: this.owner, leaseUntil: until, lastRunAt: sql`now()`, runCount: sql`${jobLeases.runCount} + 1` },
        setWhere: sql`${jobLeases.leaseUntil} < now() or ${jobLeases.owner} = ${this.owner}`,
      })
      .returning({ name: jobLeases.name });
    return rows.length > 0;
  }

  /**
   * Runs `job` every `intervalMs` while this instance holds its lease. The lease is renewed only
   * once half of it has passed (a 1 s job renewed a 15 s lease every second: one insert a second
   * per job, half of what an idle server wrote); the other half is the margin for the instances'
   * clocks, as before.
   */
  start(job: Job): void {
    let running = false;
    const leaseMs = Math.max(job.intervalMs * 3, 15_000);
    /** Until when (this clock, epoch ms) the lease is surely ours without renewing it; 0 = ask. */
    let renewAfter = 0;
    const tick = () => {
      if (running || this.stopped) return;
      running = true;
      const asked = Date.now();
      const held = asked < renewAfter;
      const p = (held ? Promise.resolve(true) : this.acquire(job.name, leaseMs))
        .then((mine) => {
          if (!held) renewAfter = mine ? asked + leaseMs / 2 : 0;
          return mine ? job.run() : undefined;
        })
        .catch((err: unknown) => this.log(`job ${job.name} failed:`, err))
        .finally(() => {
          running = false;
          this.inFlight.delete(p);
        });
      this.inFlight.add(p);
    };
    this.timers.push(setInterval(tick, job.intervalMs));
    tick();
  }

  /**
   * Gives back every lease this instance holds (expired at once), so another instance, or the
   * next start of this one, takes each job on its first tick.
   */
  async releaseAll(): Promise<void> {
    await this.db.update(jobLeases).set({ leaseUntil: new Date(0) }).where(eq(jobLeases.owner, this.owner));
  }

  /** Stops scheduling, waits for running jobs to finish, then releases this instance's leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.allSettled([...this.inFlight]);
    await this.releaseAll().catch((err: unknown) => this.log("releasing job leases failed:", err));
  }
}

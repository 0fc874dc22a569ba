/**
 * Job leases on real SQL (both databases): one instance at a time holds a job, and an instance
 * that stops gives its leases back so the next one runs the job on its first tick instead of
 * waiting out the lease (three periods: three hours for the hourly retention); a frequent job
 * does not renew its lease on every tick.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { jobLeases } from "../db/schema.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { JobRunner } from "./runner.ts";

const HOUR = 3_600_000;

describe.each(databaseKinds())("job leases on %s", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  });
  afterAll(async () => t?.close());

  it("holds a job for one instance until that instance stops, then the next takes it at once", async () => {
    const first = new JobRunner(t.ctx.db);
    let firstRuns = 0;
    const ran = new Promise<void>((resolve) =>
      first.start({
        name: "hourly",
        intervalMs: HOUR,
        run: async () => {
          firstRuns += 1;
          resolve();
        },
      }),
    );
    await ran;
    const second = new JobRunner(t.ctx.db);
    expect(await second.acquire("hourly", 3 * HOUR)).toBe(false);

    await first.stop();
    const [row] = await t.ctx.db.select().from(jobLeases).where(eq(jobLeases.name, "hourly"));
    expect(row!.leaseUntil.getTime()).toBeLessThan(Date.now());

    let secondRuns = 0;
    await new Promise<void>((resolve) =>
      second.start({
        name: "hourly",
        intervalMs: HOUR,
        run: async () => {
          secondRuns += 1;
          resolve();
        },
      }),
    );
    expect([firstRuns, secondRuns]).toEqual([1, 1]);
    await second.stop();
  });

  it("runs a frequent job every period but renews its lease only once half of it has passed", async () => {
    const runner = new JobRunner(t.ctx.db);
    let runs = 0;
    // A 100 ms job holds a 15 s lease (the minimum): 1.5 s of ticks need ONE acquire, not fifteen.
    runner.start({ name: "frequent", intervalMs: 100, run: async () => void (runs += 1) });
    await new Promise((r) => setTimeout(r, 1_500));
    const [row] = await t.ctx.db.select().from(jobLeases).where(eq(jobLeases.name, "frequent"));
    await runner.stop();
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(row!.runCount).toBe(0); // taken once (an insert); each renewal would have added one
    expect(row!.leaseUntil.getTime()).toBeGreaterThan(Date.now() + 10_000);
  });

  it("gives back only its own leases", async () => {
    const mine = new JobRunner(t.ctx.db);
    const theirs = new JobRunner(t.ctx.db);
    expect(await mine.acquire("mine", HOUR)).toBe(true);
    expect(await theirs.acquire("theirs", HOUR)).toBe(true);
    await mine.stop();
    expect(await new JobRunner(t.ctx.db).acquire("mine", HOUR)).toBe(true);
    expect(await new JobRunner(t.ctx.db).acquire("theirs", HOUR)).toBe(false);
  });
});

/**
 * Group commit of master signal events on real SQL (both databases): events that queue while the
 * tenant's transaction runs share the next one, in arrival order (an OPEN, MODIFY and CLOSE of one
 * ticket in one batch see each other's writes); maxPositions counts opens queued earlier in the same
 * batch, across symbols; an event failing in the middle of a batch rejects only its caller while the
 * others commit; a failed commit acknowledges none and the lane goes on; a lone event runs alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { SignalEvent, SignalEventType } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accounts, auditLogs, executions, riskLimits, signals } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import { createTestContext, seedTenant, type TestContext } from "../../test-support/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { processSignalEvent } from "./process-signal.ts";
import { SignalBatcher, type SignalBatch } from "./signal-batcher.ts";

describe.each(databaseKinds())("signal group commit on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let master: AccountRow;
  let slaveId: string;
  let n = 0;
  let sizes: number[];
  let batcher: SignalBatcher;

  beforeAll(async () => {
    t = await createTestContext(kind);
  });
  afterAll(async () => t?.close());

  beforeEach(async () => {
    n += 1;
    const db = t.ctx.db;
    tenantId = await seedTenant(db, "batch");
    const [m] = await db
      .insert(accounts)
      .values({ tenantId, accountNumber: "50001234", login: "50001234", broker: "IC", platform: "MT5", role: "MASTER", lastHeartbeat: new Date() })
      .returning();
    master = m!;
    const [s] = await db.insert(accounts).values({ tenantId, accountNumber: "7001", broker: "Pepperstone", platform: "MT4", role: "SLAVE", lastHeartbeat: new Date() }).returning();
    slaveId = s!.id;
    sizes = [];
    batcher = new SignalBatcher(t.ctx.db, {
      beforeCommit: async (_tx, batch: SignalBatch) => {
        sizes.push(batch.size);
      },
    });
  });

  let seq = 0;
  const event = (type: SignalEventType, ticket: string, over: Partial<SignalEvent["order"]> = {}): SignalEvent => {
    seq += 1;
    const key = `k-${n}-${seq}`;
    return {
      id: `e-${seq}`,
      type,
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: null, tp: null, ...over },
      idempotencyKey: key,
    };
  };
  const send = (ev: SignalEvent, b: SignalBatcher = batcher, receivedAt = new Date()) =>
    processSignalEvent(t.ctx, { tenantId, master, event: ev, receivedAt, idempotency: { tenantId, key: ev.idempotencyKey } }, b);
  const signalsOf = (ticket: string) => t.ctx.db.select().from(signals).where(and(eq(signals.tenantId, tenantId), eq(signals.masterTicket, ticket)));
  /** Master audit entries in the order they were written (bigserial id). */
  const masterAudits = () =>
    t.ctx.db
      .select({ message: auditLogs.message })
      .from(auditLogs)
      .where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.source, "bridge")))
      .orderBy(asc(auditLogs.id));

  it("runs a lone event in its own transaction and the ones queued behind it together, in arrival order", async () => {
    const lone = await send(event("OPEN", "100"));
    expect(lone.body).toMatchObject({ type: "OPEN", queued: 1 });
    expect(sizes).toEqual([1]);

    // Sent in one tick: the first finds the lane idle and starts at once; the rest wait for it.
    // All arrived in the same millisecond: their orders must still not tie (claimed by created_at).
    const arrival = new Date();
    const results = await Promise.all([
      send(event("OPEN", "101"), batcher, arrival),
      send(event("OPEN", "102"), batcher, arrival),
      send(event("MODIFY", "102", { sl: "1.05" }), batcher, arrival),
      send(event("CLOSE", "102", { price: "1.2" }), batcher, arrival),
      send(event("CLOSE", "101", { price: "1.2" }), batcher, arrival),
    ]);
    expect(sizes).toEqual([1, 1, 4]);
    expect(results.map((r) => r.body.type)).toEqual(["OPEN", "OPEN", "MODIFY", "CLOSE", "CLOSE"]);
    // The MODIFY and CLOSE found the OPEN written earlier in the same transaction.
    expect(results.map((r) => r.body.queued)).toEqual([1, 1, 1, 1, 1]);
    const [signal] = await signalsOf("102");
    expect(signal).toMatchObject({ sl: "1.05" });
    expect(signal!.masterClosedAt).not.toBeNull();
    expect((await masterAudits()).map((a) => a.message.split(":")[0])).toEqual([
      "Master OPEN BUY 0.50 EURUSD @ 1.1 (ticket 100)",
      "Master OPEN BUY 0.50 EURUSD @ 1.1 (ticket 101)",
      "Master OPEN BUY 0.50 EURUSD @ 1.1 (ticket 102)",
      "Master modify (SL 1.05, TP none) of ticket 102 (EURUSD)",
      "Master close of ticket 102 (EURUSD)",
      "Master close of ticket 101 (EURUSD)",
    ]);
    const closes = await t.ctx.db
      .select({ action: executions.action, createdAt: executions.createdAt })
      .from(executions)
      .where(and(eq(executions.tenantId, tenantId), eq(executions.masterTicket, "102")))
      .orderBy(asc(executions.createdAt));
    expect(closes.map((c) => c.action)).toEqual(["OPEN", "MODIFY", "CLOSE"]);
    // One millisecond apart at least: the order a slave claims them in is never left to the id.
    expect(new Set(closes.map((c) => c.createdAt.getTime())).size).toBe(3);
  });

  it("counts the opens queued earlier in the batch, on any symbol, against maxPositions", async () => {
    await t.ctx.db.insert(riskLimits).values({
      tenantId,
      accountId: slaveId,
      targetId: slaveId,
      maxDrawdownPct: "100",
      maxLotSize: "10",
      maxPositions: 3,
      maxSpreadPts: 1000,
      maxDeviationPts: 1000,
    });
    const results = await Promise.all([
      send(event("OPEN", "200")),
      send(event("OPEN", "201")),
      send(event("OPEN", "202", { symbol: "GBPUSD" })),
      send(event("OPEN", "203")),
      send(event("OPEN", "204", { symbol: "GBPUSD" })),
    ]);
    expect(sizes).toEqual([1, 4]);
    expect(results.map((r) => [r.body.queued, r.body.rejected])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 1],
    ]);
    const blocked = await t.ctx.db
      .select({ ticket: executions.masterTicket, code: executions.reasonCode })
      .from(executions)
      .where(and(eq(executions.tenantId, tenantId), eq(executions.status, "rejected")))
      .orderBy(asc(executions.masterTicket));
    expect(blocked).toEqual([
      { ticket: "203", code: "max_positions" },
      { ticket: "204", code: "max_positions" },
    ]);
  });

  it("rejects only the events that fail in the middle of a batch and commits the others", async () => {
    const settled = await Promise.allSettled([
      send(event("OPEN", "300")),
      send(event("OPEN", "301")),
      send(event("OPEN", "300")), // ticket already open (written earlier in this batch): 409
      send(event("CLOSE", "399", { price: "1.2" })), // unknown ticket: 404
      send(event("OPEN", "302", { volume: "0" })), // 400
      send(event("MODIFY", "301", { sl: "1.04" })),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "rejected", "rejected", "fulfilled"]);
    const reasons = settled.map((s) => (s.status === "rejected" ? (s.reason as AppError) : null));
    expect(reasons.map((r) => (r instanceof AppError ? r.status : null))).toEqual([null, null, 409, 404, 400, null]);
    // The batch's first run failed and was rolled back; its run with savepoints committed.
    expect(sizes).toEqual([1, 5]);
    expect(await signalsOf("300")).toHaveLength(1);
    const [modified] = await signalsOf("301");
    expect(modified).toMatchObject({ sl: "1.04" });
    expect(await signalsOf("302")).toHaveLength(0);
    expect((await masterAudits()).map((a) => a.message.split(":")[0])).toEqual([
      "Master OPEN BUY 0.50 EURUSD @ 1.1 (ticket 300)",
      "Master OPEN BUY 0.50 EURUSD @ 1.1 (ticket 301)",
      "Master modify (SL 1.04, TP none) of ticket 301 (EURUSD)",
    ]);
  });

  it("acknowledges none of a batch whose commit fails, and the lane goes on", async () => {
    const failing = new SignalBatcher(t.ctx.db, {
      beforeCommit: async (_tx, batch) => {
        sizes.push(batch.size);
        if (batch.size > 1) throw new Error("simulated commit failure");
      },
    });
    const settled = await Promise.allSettled([
      send(event("OPEN", "400"), failing),
      send(event("OPEN", "401"), failing),
      send(event("OPEN", "402"), failing),
      send(event("OPEN", "401"), failing), // would be a 409: the commit failure wins
      send(event("OPEN", "403"), failing),
    ]);
    expect(sizes).toEqual([1, 4]);
    expect(settled[0].status).toBe("fulfilled");
    for (const s of settled.slice(1)) expect(s).toMatchObject({ status: "rejected", reason: new Error("simulated commit failure") });
    const stored = await t.ctx.db
      .select({ ticket: signals.masterTicket })
      .from(signals)
      .where(and(eq(signals.tenantId, tenantId), inArray(signals.masterTicket, ["400", "401", "402", "403"])));
    expect(stored).toEqual([{ ticket: "400" }]);
    expect(await masterAudits()).toHaveLength(1);
    // The lane is idle again and serves the next event.
    expect(failing.pending(tenantId)).toBe(0);
    expect((await send(event("OPEN", "401"), failing)).body.queued).toBe(1);
  });

  it("starts a batch's next event of the same ticket once the one before has sent its last statement, before that statement answers", async () => {
    // The first event finds the lane idle and runs alone; B and C queue behind it and share a batch.
    let releaseLone: () => void = () => undefined;
    const loneHeld = new Promise<void>((resolve) => (releaseLone = resolve));
    const lone = batcher.submit(tenantId, async (tx) => {
      await tx.execute(sql`select 1`);
      await loneHeld;
    });
    // B's last statement answers once C has started and read the slave states — or, on a batcher
    // that waits for B to end first, when the fallback fires (the assertion below then fails; no hang).
    let answerB: (by: string) => void = () => undefined;
    const bAnswered = new Promise<string>((resolve) => (answerB = resolve));
    const fallback = setTimeout(() => answerB("fallback"), 2_000);
    const log: string[] = [];
    const b = batcher.submit(tenantId, async (tx, batch) => {
      log.push("B sends its last statement");
      return batch.commitWith(bAnswered.then(async (who) => (await tx.execute(sql`select 2`), who)));
    });
    const c = batcher.submit(tenantId, async (tx, batch) => {
      await batch.startTurn;
      log.push("C started");
      await tx.execute(sql`select 3`);
      // B counted its opens when it planned: C may read the slave states before B's record answers.
      await batch.afterPrevious;
      log.push("C reads the slave states");
      answerB("C");
    });
    releaseLone();
    await lone;
    const [by] = await Promise.all([b, c]);
    clearTimeout(fallback);
    expect(sizes).toEqual([1, 2]);
    expect(by).toBe("C");
    expect(log).toEqual(["B sends its last statement", "C started", "C reads the slave states"]);
  });

  it("lets an event of another ticket load while an earlier one works, and holds one of the same ticket back", async () => {
    let releaseLone: () => void = () => undefined;
    const loneHeld = new Promise<void>((resolve) => (releaseLone = resolve));
    const lone = batcher.submit(tenantId, () => loneHeld, "1");
    // B (ticket 1) finishes its loads when C (ticket 2) has loaded — or, on a batcher that runs the
    // events one after another, when the fallback fires (the assertion below then fails; no hang).
    let loadedC: (by: string) => void = () => undefined;
    const cLoaded = new Promise<string>((resolve) => (loadedC = resolve));
    const fallback = setTimeout(() => loadedC("fallback"), 2_000);
    const log: string[] = [];
    const b = batcher.submit(
      tenantId,
      async (tx, batch) => {
        await batch.startTurn;
        await tx.execute(sql`select 1`);
        const by = await cLoaded;
        await batch.afterPrevious;
        log.push("B record");
        await batch.commitWith(tx.execute(sql`select 2`));
        return by;
      },
      "1",
    );
    const c = batcher.submit(
      tenantId,
      async (tx, batch) => {
        await batch.startTurn;
        await tx.execute(sql`select 3`);
        log.push("C loaded");
        loadedC("C");
        await batch.afterPrevious;
        log.push("C record");
        await batch.commitWith(tx.execute(sql`select 4`));
      },
      "2",
    );
    const d = batcher.submit(
      tenantId,
      async (tx, batch) => {
        await batch.startTurn;
        log.push("D loads");
        await batch.commitWith(tx.execute(sql`select 5`));
      },
      "1",
    );
    releaseLone();
    await lone;
    const [by] = await Promise.all([b, c, d]);
    clearTimeout(fallback);
    expect(sizes).toEqual([1, 3]);
    expect(by).toBe("C");
    // C loaded before B sent its record, but the records leave in arrival order; D (ticket 1) loads
    // only once B has sent its last statement.
    expect(log).toEqual(["C loaded", "B record", "C record", "D loads"]);
  });

  it("runs a batch again with savepoints when an event fails, the others committed", async () => {
    let releaseLone: () => void = () => undefined;
    const loneHeld = new Promise<void>((resolve) => (releaseLone = resolve));
    const lone = batcher.submit(tenantId, () => loneHeld);
    const started: string[] = [];
    const job = (name: string, fail: boolean) =>
      batcher.submit(
        tenantId,
        async (tx, batch) => {
          await batch.startTurn;
          started.push(name);
          // A load, then the decision: a 409 is thrown before the event's last statement is sent.
          await tx.execute(sql`select 1`);
          if (fail) throw new AppError("conflict", `${name} fails`);
          await batch.commitWith(tx.execute(sql`select 2`));
          return name;
        },
        name,
      );
    const settled = Promise.allSettled([job("B", false), job("C", true), job("D", false)]);
    releaseLone();
    await lone;
    expect((await settled).map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    // First run: all three (other tickets), C failing; then B, C, D again, each in its savepoint.
    expect(started).toEqual(["B", "C", "D", "B", "C", "D"]);
    expect(sizes).toEqual([1, 3]);
  });
});

/**
 * Group commit of slave execution reports on real SQL (both databases): reports read in one turn of
 * the event loop share a transaction, those that queue while it runs share the next one, and all
 * come out as if applied one after another —
 * each caller its own answer, a 404 or 409 only its own, an order reported twice in one batch
 * answered `duplicate` by the next, an open's fill and its close in one batch leaving the link
 * closed, the signal ended once (announced by one caller); a failing transaction is retried one
 * report at a time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import type { Db } from "../../db/client.ts";
import { accounts, auditLogs, executions, positionLinks, signalEvents, signals } from "../../db/schema.ts";
import type { AppError } from "../../http/errors.ts";
import { createTestContext, recordStatements, seedTenant, type TestContext } from "../../test-support/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { applyReportBatch, type ReportJob, type ReportResult } from "./apply-report.ts";
import { ReportBatcher } from "./report-batcher.ts";

describe.each(databaseKinds())("report group commit on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaves: AccountRow[];
  let sizes: number[];
  let batcher: ReportBatcher<ReportJob, ReportResult>;

  beforeAll(async () => {
    t = await createTestContext(kind);
  });
  afterAll(async () => t?.close());

  beforeEach(async () => {
    const db = t.ctx.db;
    tenantId = await seedTenant(db, "reports");
    slaves = await db
      .insert(accounts)
      .values(Array.from({ length: 10 }, (_, i) => ({ tenantId, accountNumber: `70${i}`, broker: "Pepperstone", platform: "MT4" as const, role: "SLAVE" as const })))
      .returning();
    sizes = [];
    batcher = new ReportBatcher(t.ctx.relaxedDb, async (tx: Db, tenant: string, jobs: ReportJob[]) => {
      sizes.push(jobs.length);
      return applyReportBatch(tx, tenant, jobs);
    });
  });

  let ticket = 500;
  /** A master position copied to every slave: its signal, event and one pending order per slave (`action`). */
  async function copied(action: "OPEN" | "CLOSE", signalId?: string) {
    const db = t.ctx.db;
    const masterTicket = String(++ticket);
    const signal =
      signalId ??
      (
        await db
          .insert(signals)
          .values({ tenantId, masterTicket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1", openVolume: "1", price: "1.1", openedAt: new Date() })
          .returning()
      )[0]!.id;
    const [event] = await db
      .insert(signalEvents)
      .values({ tenantId, signalId: signal, type: action, externalId: `e-${masterTicket}-${action}`, idempotencyKey: `k-${masterTicket}-${action}`, payload: {}, masterTs: new Date() })
      .returning();
    const orders = await db
      .insert(executions)
      .values(
        slaves.map((s) => ({ tenantId, signalId: signal, eventId: event!.id, slaveAccountId: s.id, action, masterTicket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1.00", price: "1.1", deliveryCount: 1 })),
      )
      .returning();
    // In slave order, whatever order the insert returned them in.
    return { signalId: signal, orders: slaves.map((s) => orders.find((o) => o.slaveAccountId === s.id)!) };
  }
  const job = (slave: AccountRow, orderId: string, status: "filled" | "closed", slaveTicket: string, over: Partial<ReportJob["report"]> = {}): ReportJob => ({
    account: slave,
    report: { orderId, status, slaveTicket, fillPrice: "1.1", volume: "1.00", ...over },
    signature: null,
    clockOffsetMs: null,
    now: new Date(),
  });
  const submit = (j: ReportJob) => batcher.submit(tenantId, j);
  const settle = (p: Promise<ReportResult>) => p.then((value) => ({ value }), (error: unknown) => ({ error }));
  const linksOf = (signalId: string) => t.ctx.db.select().from(positionLinks).where(and(eq(positionLinks.tenantId, tenantId), eq(positionLinks.signalId, signalId)));
  const signalOf = async (id: string) => (await t.ctx.db.select().from(signals).where(eq(signals.id, id)))[0]!;

  it("applies the reports of one turn, and those queued behind a running batch, in one transaction each, each caller its own answer", async () => {
    const { signalId, orders } = await copied("OPEN");
    const answers = await Promise.all(slaves.map((s, i) => submit(job(s, orders[i]!.id, "filled", `9${i}`))));
    expect(sizes).toEqual([10]);
    expect(answers.map((a) => a.body)).toEqual(orders.map((o) => ({ ok: true, duplicate: false, executionId: o.id, status: "filled" })));
    expect(answers.map((a) => a.effects.executions.map((e) => e.id))).toEqual(orders.map((o) => [o.id]));
    const links = await linksOf(signalId);
    expect(links.map((l) => [l.slaveAccountId, l.slaveTicket, l.status, l.volume]).sort()).toEqual(slaves.map((s, i) => [s.id, `9${i}`, "open", "1.00"]).sort());
    const trade = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.category, "trade")));
    expect(trade).toHaveLength(10);

    // The master closes: ten closes reported together end the signal once, announced by one caller.
    await t.ctx.db.update(signals).set({ masterClosedAt: new Date(), openVolume: "0" }).where(eq(signals.id, signalId));
    const closes = await copied("CLOSE", signalId);
    sizes = [];
    const first = submit(job(slaves[0]!, closes.orders[0]!.id, "closed", "90"));
    await new Promise((resolve) => setImmediate(resolve)); // its transaction has started
    const closed = [await first, ...(await Promise.all(slaves.slice(1).map((s, i) => submit(job(s, closes.orders[i + 1]!.id, "closed", `9${i + 1}`)))))];
    expect(sizes).toEqual([1, 9]);
    expect(closed.flatMap((a) => a.effects.closedSignalIds)).toEqual([signalId]);
    expect((await signalOf(signalId)).status).toBe("closed");
    expect((await linksOf(signalId)).map((l) => l.status)).toEqual(Array(10).fill("closed"));
  });

  it("settles a 404 and a 409 alone; an order reported twice in one batch is answered duplicate by the next", async () => {
    const { orders } = await copied("OPEN");
    await submit(job(slaves[0]!, orders[0]!.id, "filled", "90"));
    sizes = [];
    const results = await Promise.all([
      settle(submit(job(slaves[9]!, orders[9]!.id, "filled", "99"))),
      settle(submit(job(slaves[1]!, orders[2]!.id, "filled", "91"))), // another slave's order: 404
      settle(submit(job(slaves[0]!, orders[0]!.id, "filled", "77"))), // another ticket for a reported fill: 409
      settle(submit(job(slaves[3]!, orders[3]!.id, "filled", "93"))),
      settle(submit(job(slaves[3]!, orders[3]!.id, "filled", "93"))), // the same again: next batch
    ]);
    expect(sizes).toEqual([5, 1]);
    expect(results[0]).toMatchObject({ value: { body: { duplicate: false, status: "filled" } } });
    expect((results[1] as { error: AppError }).error).toMatchObject({ status: 404 });
    expect((results[2] as { error: AppError }).error).toMatchObject({ status: 409 });
    expect(results[3]).toMatchObject({ value: { body: { duplicate: false, executionId: orders[3]!.id } } });
    expect(results[4]).toMatchObject({ value: { body: { duplicate: true, executionId: orders[3]!.id } } });
    const row = (await t.ctx.db.select().from(executions).where(eq(executions.id, orders[2]!.id)))[0]!;
    expect(row.status).toBe("pending");
  });

  it("applies an open's fill and its close in one batch one after the other: the link ends closed", async () => {
    const { signalId, orders } = await copied("OPEN");
    const closes = await copied("CLOSE", signalId);
    const answers = await Promise.all([
      submit(job(slaves[5]!, orders[5]!.id, "filled", "95")),
      submit(job(slaves[0]!, orders[0]!.id, "filled", "90")),
      submit(job(slaves[0]!, closes.orders[0]!.id, "closed", "90")),
    ]);
    expect(sizes).toEqual([3]);
    expect(answers.map((a) => a.body.status)).toEqual(["filled", "filled", "closed"]);
    const links = await linksOf(signalId);
    expect(links.find((l) => l.slaveAccountId === slaves[0]!.id)).toMatchObject({ status: "closed", slaveTicket: "90" });
    expect(links.find((l) => l.slaveAccountId === slaves[5]!.id)).toMatchObject({ status: "open", volume: "1.00" });
  });

  it("applies a batch in one statement per step: orders with their signals' locks, links, outcomes with the link changes, completion facts with the audit entries", async () => {
    const sent: string[][] = [];
    batcher = new ReportBatcher(t.ctx.relaxedDb, async (tx: Db, tenant: string, jobs: ReportJob[]) => {
      const statements = recordStatements(tx);
      const before = statements.length;
      const out = await applyReportBatch(tx, tenant, jobs);
      sent.push(statements.slice(before));
      return out;
    });
    const { signalId, orders } = await copied("OPEN");
    await Promise.all(slaves.map((s, i) => submit(job(s, orders[i]!.id, "filled", `9${i}`))));
    await t.ctx.db.update(signals).set({ masterClosedAt: new Date(), openVolume: "0" }).where(eq(signals.id, signalId));
    const closes = await copied("CLOSE", signalId);
    const closed = await Promise.all(slaves.map((s, i) => submit(job(s, closes.orders[i]!.id, "closed", `9${i}`))));

    // Opens: 4 statements (were 7: the locks, the links' insert and the audit entries apart).
    // Closes: 5, the signal's end the fifth (were 8).
    expect(sent.map((texts) => texts.length)).toEqual([4, 5]);
    for (const texts of sent) {
      expect(texts[0]).toMatch(/for update of e[\s\S]*pg_advisory_xact_lock/);
      expect(texts[2]).toMatch(/insert into position_links[\s\S]*update position_links[\s\S]*update executions/);
      expect(texts[3]).toMatch(/insert into audit_logs[\s\S]*from signals s/);
    }
    expect(closed.flatMap((a) => a.effects.closedSignalIds)).toEqual([signalId]);
    const links = await linksOf(signalId);
    expect(links.map((l) => [l.slaveAccountId, l.slaveTicket, l.status]).sort()).toEqual(slaves.map((s, i) => [s.id, `9${i}`, "closed"]).sort());
    const trade = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.category, "trade"), eq(auditLogs.signalId, signalId)));
    expect(trade).toHaveLength(20);
    expect(trade.filter((a) => a.message.startsWith("CLOSE EURUSD BUY 1.00 on ")).length).toBe(10);
  });

  it("runs a batch whose transaction fails again one report per transaction", async () => {
    const { orders } = await copied("OPEN");
    let failed = 0;
    batcher = new ReportBatcher(t.ctx.relaxedDb, async (tx: Db, tenant: string, jobs: ReportJob[]) => {
      sizes.push(jobs.length);
      const out = await applyReportBatch(tx, tenant, jobs);
      if (jobs.length > 1) {
        failed += 1;
        throw new Error("commit failed");
      }
      return out;
    });
    const answers = await Promise.all(slaves.slice(0, 4).map((s, i) => submit(job(s, orders[i]!.id, "filled", `9${i}`))));
    expect(failed).toBe(1);
    expect(sizes).toEqual([4, 1, 1, 1, 1]);
    expect(answers.map((a) => a.body.duplicate)).toEqual([false, false, false, false]);
  });
});

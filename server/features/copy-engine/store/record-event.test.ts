/**
 * recordEvent on real SQL (both databases): one statement writes the event, the orders and
 * verdicts, the audit entries, the idempotency completion and every signal's changes, scoped to
 * the tenant — and builds no SQL per call (its text is fixed per shape: Drizzle spent 0.55–0.63 ms
 * of CPU per event assembling it). The orders it returns are the rows a select reads back, whether
 * it built them from the written values (the usual case: no column read back) or had to read them.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { auditLogs, executions, idempotencyKeys, signalEvents, signals } from "../../../db/schema.ts";
import { createTestContext, recordStatements, seedTenant, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { recordEvent, storedRow, type EventRecord, type NewExecution } from "./record-event.ts";

describe.each(databaseKinds())("recordEvent on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    otherTenantId = await seedTenant(t.ctx.db, "other");
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  const newSignal = async (tenant: string, ticket: string) => {
    const [row] = await t.ctx.db
      .insert(signals)
      .values({ tenantId: tenant, masterTicket: ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1.00", openVolume: "1.00", price: "1.08450", tp: "1.10000", openedAt: new Date() })
      .returning();
    return row!;
  };
  const newKey = async () => {
    const key = `key-${randomUUID()}`;
    await t.ctx.db.insert(idempotencyKeys).values({ tenantId, key, requestHash: "h", state: "in_flight", expiresAt: new Date(Date.now() + 60_000) });
    return key;
  };
  const event = (type: SignalEvent["type"], ticket: string, key: string): SignalEvent =>
    ({
      id: `ev-${randomUUID()}`,
      type,
      ts: 1_795_000_000,
      master: { login: "5001" },
      order: { ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.40", price: "1.08500" },
      idempotencyKey: key,
    }) as SignalEvent;
  const record = (over: Partial<EventRecord> & Pick<EventRecord, "signalId" | "event">): EventRecord => ({
    tenantId,
    eventId: randomUUID(),
    receivedAt: new Date("2026-11-28T10:00:00.250Z"),
    terminalToBridgeMs: 12,
    executions: [],
    audits: [{ tenantId, category: "trade", source: "copy-engine", message: "event", signalId: over.signalId }],
    idempotency: { tenantId, key: over.event.idempotencyKey, status: 201, body: { ok: true, n: "0.40" } },
    signalChanges: null,
    ...over,
  });

  it("writes the event, orders and verdicts, audit entries, the completion and each signal's changes in one statement", async () => {
    const signal = await newSignal(tenantId, "9001");
    const leg = await newSignal(tenantId, "9002");
    const untouched = await newSignal(tenantId, "9003");
    const key = await newKey();
    const closedAt = new Date("2026-11-28T10:00:00.000Z");
    const eventId = randomUUID();
    const r = record({
      eventId,
      signalId: signal.id,
      event: event("CLOSE", "9001", key),
      executions: [
        { tenantId, signalId: signal.id, eventId, slaveAccountId: slaveId, action: "CLOSE", masterTicket: "9001", symbol: "EURUSD", volume: "0.40", slaveTicket: "77" },
        { tenantId, signalId: signal.id, eventId, slaveAccountId: slaveId, action: "CLOSE", status: "rejected", reasonCode: "close_only", errorMessage: "Close only" },
      ],
      audits: [
        { tenantId, category: "trade", source: "copy-engine", message: "close", signalId: signal.id },
        { tenantId, level: "warning", category: "system", source: "risk", message: "rejected", accountId: slaveId, metadata: { reason: "close_only" } },
      ],
      signalChanges: { volume: "0.60", masterClosedAt: closedAt, finalStatus: "closed" },
      moreSignalChanges: [
        // undefined leaves the column as it is (as Drizzle's set() did); null clears it.
        { signalId: leg.id, changes: { sl: "1.07000", tp: null, price: undefined } },
        { signalId: untouched.id, changes: {} },
      ],
    });
    let sent = 0;
    const created = await t.ctx.db.transaction(async (tx) => {
      const statements = recordStatements(tx);
      const rows = await recordEvent(tx, r);
      sent = statements.length;
      return rows;
    });
    expect(sent).toBe(1);

    expect(created.map((x) => [x.status, x.action, x.volume, x.eventId, x.reasonCode, x.deliveryCount, x.origin])).toEqual([
      ["pending", "CLOSE", "0.40", r.eventId, null, 0, "signal"],
      ["rejected", "CLOSE", null, r.eventId, "close_only", 0, "signal"],
    ]);
    const [ev] = await t.ctx.db.select().from(signalEvents).where(eq(signalEvents.id, r.eventId));
    expect(ev).toMatchObject({ tenantId, signalId: signal.id, type: "CLOSE", externalId: r.event.id, idempotencyKey: key, payload: r.event, terminalToBridgeMs: 12 });
    expect(ev!.masterTs.getTime()).toBe(1_795_000_000_000);
    expect(ev!.receivedAt.toISOString()).toBe("2026-11-28T10:00:00.250Z");
    const stored = await t.ctx.db.select().from(executions).where(eq(executions.eventId, r.eventId));
    expect(stored).toHaveLength(2);
    const audits = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.source, "risk")));
    expect(audits.map((a) => [a.level, a.message, a.accountId, a.metadata])).toEqual([["warning", "rejected", slaveId, { reason: "close_only" }]]);
    const [done] = await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(done).toMatchObject({ state: "done", responseStatus: 201, responseBody: { ok: true, n: "0.40" } });
    const after = new Map((await t.ctx.db.select().from(signals).where(eq(signals.tenantId, tenantId))).map((s) => [s.id, s]));
    expect(after.get(signal.id)).toMatchObject({ volume: "0.60", finalStatus: "closed", openVolume: "1.00", sl: null });
    expect(after.get(signal.id)!.masterClosedAt?.toISOString()).toBe(closedAt.toISOString());
    expect(after.get(leg.id)).toMatchObject({ sl: "1.07000", tp: null, openVolume: "1.00", price: "1.08450" });
    expect(after.get(untouched.id)).toEqual(untouched);
  });

  it("an event without orders writes the event, its audit entry and the completion, and returns none", async () => {
    const signal = await newSignal(tenantId, "9101");
    const key = await newKey();
    const r = record({ signalId: signal.id, event: event("MODIFY", "9101", key), signalChanges: { sl: "1.08000" } });
    expect(await t.ctx.db.transaction((tx) => recordEvent(tx, r))).toEqual([]);
    expect(await t.ctx.db.select().from(signalEvents).where(eq(signalEvents.id, r.eventId))).toHaveLength(1);
    const [done] = await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(done!.state).toBe("done");
    const [s] = await t.ctx.db.select().from(signals).where(eq(signals.id, signal.id));
    expect(s!.sl).toBe("1.08000");
  });

  it("never changes another tenant's signal, even when named", async () => {
    const mine = await newSignal(tenantId, "9201");
    const theirs = await newSignal(otherTenantId, "9201");
    const key = await newKey();
    const r = record({ signalId: mine.id, event: event("MODIFY", "9201", key), signalChanges: { tp: "1.09" }, moreSignalChanges: [{ signalId: theirs.id, changes: { tp: "9.99" } }] });
    await t.ctx.db.transaction((tx) => recordEvent(tx, r));
    const [after] = await t.ctx.db.select().from(signals).where(eq(signals.id, theirs.id));
    expect(after).toEqual(theirs);
    await expect(recordEvent(t.ctx.db, { ...r, idempotency: { ...r.idempotency, tenantId: otherTenantId } })).rejects.toThrow(/another tenant/);
  });

  it("builds no SQL per call: every shape's text is written once and reused", async () => {
    for (const n of [1, 2]) {
      const signal = await newSignal(tenantId, `93${n}0`);
      const key = await newKey();
      const r = record({
        signalId: signal.id,
        event: event("OPEN", signal.masterTicket, key),
        executions: [{ tenantId, signalId: signal.id, slaveAccountId: slaveId, action: "OPEN", volume: `0.${n}0` }],
        signalChanges: { price: "1.08501" },
      });
      const calls = await t.ctx.db.transaction(async (tx) => {
        const build = vi.spyOn(PgDialect.prototype, "sqlToQuery");
        await recordEvent(tx, r);
        const n = build.mock.calls.length;
        build.mockRestore();
        return n;
      });
      expect(calls).toBe(0);
    }
  });

  /** The stored rows of `created`, by id, in `created`'s order. */
  const readBack = async (created: { id: string }[]) => {
    const rows = await t.ctx.db.select().from(executions).where(eq(executions.tenantId, tenantId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return created.map((c) => byId.get(c.id));
  };
  /** An OPEN record of `orders` on a new signal, and the statements it sent. */
  const recordOrders = async (ticket: string, orders: (signalId: string, eventId: string) => NewExecution[]) => {
    const signal = await newSignal(tenantId, ticket);
    const key = await newKey();
    const eventId = randomUUID();
    const r = record({ eventId, signalId: signal.id, event: event("OPEN", ticket, key), executions: orders(signal.id, eventId) });
    return t.ctx.db.transaction(async (tx) => {
      const texts = recordStatements(tx);
      const created = await recordEvent(tx, r);
      return { created, texts: [...texts] };
    });
  };

  it("returns each order as a select reads it back, without reading any column back", async () => {
    const at = new Date("2026-11-28T10:00:01.123Z");
    const { created, texts } = await recordOrders("9401", (signalId, eventId) => [
      // Every column set, in the forms the domain writes: numerics with their scale, negative ones,
      // whole numbers, dates to the millisecond, text beyond ASCII.
      {
        tenantId, signalId, eventId, slaveAccountId: slaveId, action: "OPEN", status: "pending", masterTicket: "9401", symbol: "EURUSD.a", side: "BUY",
        orderType: "MARKET", volume: "0.750", requestedVolume: "1.5", price: "1.08450", stopLimitPrice: null, sl: "0", tp: "-12.5", comment: "cb:9401 — ünï 😀",
        magic: "20241121", maxSpreadPts: 30, maxDeviationPts: -1, expiresAt: at, reasonCode: null, defaultSpec: true, origin: "snapshot", slaveTicket: "77",
        fillPrice: "1.08452", fillTime: at, point: "0.00001", latencyMs: 0, terminalToBridgeMs: 2147483647, bridgeToSlaveMs: -2147483648, slaveExecutionMs: 7,
        slippagePts: "-2.0", profit: "123456789012345678901234567890.123456789", errorCode: 10009, errorMessage: "", reportHash: "h", reportSignature: "s",
        deliveryCount: 1, leaseUntil: new Date(at.getTime() + 10_000), deliveredAt: at, reportedAt: null,
      },
      // The fewest columns: every default (id, created_at, status, origin, delivery count, flags).
      // (One opening order per signal and slave: the others are other actions.)
      { tenantId, signalId, eventId, slaveAccountId: slaveId, action: "MODIFY", volume: "0.10" },
      // A verdict with its own creation time.
      { tenantId, signalId, eventId, slaveAccountId: slaveId, action: "CLOSE", status: "rejected", reasonCode: "expired", createdAt: new Date("2026-11-28T09:59:59.001Z") },
    ]);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('select now() as "createdAt"');
    expect(texts[0]).not.toMatch(/returning "id" as "id", "tenant_id" as "tenantId"/);
    expect(created.map((c) => [c.status, c.origin, c.deliveryCount, c.defaultSpec])).toEqual([
      ["pending", "snapshot", 1, true],
      ["pending", "signal", 0, false],
      ["rejected", "signal", 0, false],
    ]);
    // The same values, types and key order as the select (Drizzle's select model).
    expect(await readBack(created)).toStrictEqual(created);
    expect(created[1]!.createdAt.getTime()).toBe(created[0]!.createdAt.getTime());
    expect(created[2]!.createdAt.toISOString()).toBe("2026-11-28T09:59:59.001Z");
  });

  it("reads the orders back when a cell might not come back as written, and returns what was stored", async () => {
    const cases: [string, (signalId: string, eventId: string) => Partial<NewExecution>][] = [
      ["an exponent", () => ({ volume: "1e-2" })],
      ["a plus sign", () => ({ price: "+1.5" })],
      ["no leading zero", () => ({ sl: ".5" })],
      ["a negative zero", () => ({ tp: "-0.00" })],
      ["a leading zero", () => ({ point: "00.10" })],
      ["an upper-case uuid", (signalId) => ({ signalId: signalId.toUpperCase() })],
      ["half a surrogate pair", () => ({ comment: "cb:\uD83D" })],
    ];
    for (const [i, [name, over]] of cases.entries()) {
      const { created, texts } = await recordOrders(`95${i}0`, (signalId, eventId) => [
        { tenantId, signalId, eventId, slaveAccountId: slaveId, action: "OPEN", volume: "0.10" },
        { tenantId, signalId, eventId, slaveAccountId: slaveId, action: "CLOSE", volume: "0.20", ...over(signalId, eventId) },
      ]);
      expect(texts[0], name).toMatch(/returning "id" as "id", "tenant_id" as "tenantId"/);
      expect(await readBack(created), name).toStrictEqual(created);
    }
  });
});

describe("storedRow: which written values come back unchanged", () => {
  const base: NewExecution = {
    id: "0b7c2f6e-5a43-4d8e-9c1a-2f3e4d5c6b7a",
    tenantId: "1b7c2f6e-5a43-4d8e-9c1a-2f3e4d5c6b7a",
    slaveAccountId: "2b7c2f6e-5a43-4d8e-9c1a-2f3e4d5c6b7a",
    action: "OPEN",
    status: "pending",
    defaultSpec: false,
    origin: "signal",
    deliveryCount: 0,
  };
  const now = new Date("2026-11-30T12:00:00.000Z");
  it.each<[string, Partial<NewExecution>, boolean]>([
    ["a canonical decimal", { volume: "0.10" }, true],
    ["a negative decimal", { profit: "-3.25" }, true],
    ["a whole number", { price: "12" }, true],
    ["zero", { sl: "0" }, true],
    ["an exponent", { volume: "1e-2" }, false],
    ["a plus sign", { volume: "+1" }, false],
    ["a negative zero", { profit: "-0" }, false],
    ["a leading zero", { volume: "01.5" }, false],
    ["a trailing point", { volume: "1." }, false],
    ["a decimal as a number", { volume: 0.1 as unknown as string }, false],
    ["NaN", { price: "NaN" }, false],
    ["an upper-case uuid", { signalId: "3B7C2F6E-5A43-4D8E-9C1A-2F3E4D5C6B7A" }, false],
    ["a fractional integer", { latencyMs: 1.5 }, false],
    ["an integer beyond int4", { latencyMs: 2 ** 31 }, false],
    ["a negative zero integer", { latencyMs: -0 }, false],
    ["an invalid date", { fillTime: new Date(Number.NaN) }, false],
    ["a NUL in text", { comment: "a\0b" }, false],
    ["a whole surrogate pair", { comment: "😀" }, true],
    ["half a surrogate pair", { comment: "\uDE00" }, false],
  ])("%s → %s", (_name, over, unchanged) => {
    const row = storedRow({ ...base, ...over }, now);
    expect(row !== null).toBe(unchanged);
    if (row) {
      for (const [k, v] of Object.entries(over)) expect((row as Record<string, unknown>)[k]).toEqual(v);
      expect(row.createdAt).toEqual(now);
    }
  });
});

/**
 * fixedUnnest on real SQL (both databases): the rows come back exactly as values() would store
 * them — text with array-literal syntax in it, exact numerics, dates, json, nulls, JavaScript,
 * SQL and serial defaults per cell — and a column it cannot default exactly throws at build time.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { auditLogs, executions, signalEvents } from "./schema.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../test-support/context.ts";
import { fixedUnnest } from "./unnest-rows.ts";
import { runRaw, rawStatement, tableColumns, tableRow } from "./raw.ts";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** fixedUnnest's inserts as raw statements returning every column, built once for the suite. */
const fixedExecutions = fixedUnnest(executions);
const fixedAudit = fixedUnnest(auditLogs);
const insertExecutions = rawStatement(
  "test_fixed_unnest_executions",
  `insert into executions (${fixedExecutions.columns}) ${fixedExecutions.select(1)} returning ${tableColumns(executions)}`,
  tableRow(executions),
);
const fixedEvents = fixedUnnest(signalEvents);
const insertEvents = rawStatement("test_fixed_unnest_events", `insert into signal_events (${fixedEvents.columns}) ${fixedEvents.select(1)} returning ${tableColumns(signalEvents)}`, tableRow(signalEvents));
const insertAudit = rawStatement("test_fixed_unnest_audit", `insert into audit_logs (${fixedAudit.columns}) ${fixedAudit.select(1)} returning ${tableColumns(auditLogs)}`, tableRow(auditLogs));

describe.each(databaseKinds())("fixedUnnest on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
  });
  afterAll(async () => t?.close());

  it("fixedUnnest: the same rows as values(), whatever each row sets, with per-cell defaults from JavaScript and SQL", async () => {
    const at = new Date("2026-11-28T10:00:00.123Z");
    const id = randomUUID();
    const rows = [
      // Sets the id and created_at (SQL defaults) and status (a JavaScript default) …
      { id, tenantId, slaveAccountId: slaveId, action: "OPEN", status: "rejected", volume: "0.10", comment: `a,"b"{c}\\ d`, createdAt: at, deliveryCount: 2 },
      // … this one leaves them out: gen_random_uuid(), now(), 'pending', 0 per cell.
      { tenantId, slaveAccountId: slaveId, action: "CLOSE", volume: "12.345678901234567890", price: null, defaultSpec: true },
    ];
    const before = Date.now();
    const viaFixed = await runRaw(t.ctx.db, insertExecutions, fixedExecutions.params(rows));
    const viaValues = await t.ctx.db.insert(executions).values(rows.map((r, i) => (i === 0 ? { ...r, id: randomUUID() } : r))).returning();
    const comparable = (r: (typeof viaFixed)[number]) => ({ ...r, id: undefined, createdAt: undefined });
    expect(viaFixed.map(comparable)).toEqual(viaValues.map(comparable));
    expect(viaFixed[0]).toMatchObject({ id, status: "rejected", createdAt: at, deliveryCount: 2, comment: `a,"b"{c}\\ d`, defaultSpec: false, origin: "signal" });
    expect(viaFixed[1]).toMatchObject({ status: "pending", deliveryCount: 0, volume: "12.345678901234567890", defaultSpec: true });
    expect(viaFixed[1]!.id).not.toBe(id);
    expect(viaFixed[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });

  it("fixedUnnest: SQL defaults for cells no row sets, json round-trips", async () => {
    const before = Date.now();
    const payload = { order: { ticket: "1", volume: "0.50" }, note: 'q"uote {a,b}' };
    const rows = [
      { tenantId, type: "OPEN", externalId: "e1", idempotencyKey: "k1", payload, masterTs: new Date("2026-11-21T10:00:00Z") },
      { tenantId, type: "CLOSE", externalId: "e2", idempotencyKey: "k2", payload: [], masterTs: new Date("2026-11-21T10:00:01Z") },
    ];
    const stored = await runRaw(t.ctx.db, insertEvents, fixedEvents.params(rows));
    expect(stored.map((r) => [r.type, r.payload, r.signalId, r.masterTs.toISOString()])).toEqual([
      ["OPEN", payload, null, "2026-11-21T10:00:00.000Z"],
      ["CLOSE", [], null, "2026-11-21T10:00:01.000Z"],
    ]);
    expect(stored[0]!.id).not.toBe(stored[1]!.id); // gen_random_uuid() per row
    expect(stored[0]!.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 5_000); // now()
  });

  it("fixedUnnest: a serial column set by some rows only takes its sequence's next value for the others", async () => {
    const entry = (message: string) => ({ tenantId, level: "info", category: "trade", source: "test", message, metadata: message === "b" ? { n: "1.50" } : null });
    const [first] = await runRaw(t.ctx.db, insertAudit, fixedAudit.params([entry("a")]));
    const explicit = first!.id + 1000n;
    const stored = await runRaw(t.ctx.db, insertAudit, fixedAudit.params([entry("b"), { ...entry("c"), id: explicit }, entry("d")]));
    expect(stored.map((r) => [r.message, r.metadata])).toEqual([
      ["b", { n: "1.50" }],
      ["c", null],
      ["d", null],
    ]);
    // Other suites may draw from the sequence meanwhile (PostgreSQL): ascending, not consecutive.
    const [b, c, d] = stored.map((r) => r.id);
    expect(c).toBe(explicit);
    expect(b! > first!.id && d! > b!).toBe(true);
  });
});

describe("fixedUnnest", () => {
  it("writes one array parameter per column, whatever the rows, and refuses a nullable column with an SQL default", () => {
    const f = fixedUnnest(executions);
    expect(f.select(5)).toContain("$5::uuid[]");
    expect(f.select(5)).toContain(`$${4 + f.count}::`);
    expect(f.params([{ tenantId: "t", slaveAccountId: "s", action: "OPEN" }]).length).toBe(f.count);
    const loose = pgTable("loose", { n: integer("n"), at: timestamp("at").default(sql`now()`) });
    expect(() => fixedUnnest(loose)).toThrow(/at is nullable with an SQL default/);
  });

  it("withDefaults fills a row's missing cells as the insert does: JavaScript defaults (a function once), null, SQL defaults left out", () => {
    let calls = 0;
    const table = pgTable("filled", {
      id: integer("id").notNull().default(sql`1`),
      status: text("status").notNull().default("pending"),
      tag: text("tag").$defaultFn(() => `tag-${++calls}`),
      note: text("note"),
    });
    const f = fixedUnnest(table);
    expect(f.withDefaults({ note: "kept" })).toEqual({ status: "pending", tag: "tag-1", note: "kept" });
    expect(f.withDefaults({ id: 7, status: "done", tag: null })).toEqual({ id: 7, status: "done", tag: null, note: null });
    expect(calls).toBe(1);
    // The filled row writes the same cells; the SQL default's cell stays null for its coalesce.
    expect(f.params([f.withDefaults({ note: "kept" })])).toEqual([[null], ["pending"], ["tag-2"], ["kept"]]);
  });
});

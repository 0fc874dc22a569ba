/**
 * Data retention over HTTP (issue 15 "Growth over time"): GET /api/retention answers the defaults
 * until saved, PUT saves (audited) and refuses bad days with a 400 naming the field, each
 * organisation sees and changes only its own policy; GET /api/signals/export downloads the caller's
 * closed trades only (never an active one, never another organisation's) with every order of their
 * slaves, as JSON or CSV, within from/to.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogListSchema, exportedTradeSchema, RETENTION_MESSAGES, retentionPolicySchema, TRADE_EXPORT_CSV_COLUMNS, type SlaveOrder } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { parseCsv } from "../browser/support/csv.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

async function takeOne(slave: BridgeClient): Promise<SlaveOrder> {
  const { orders } = await slave.poll({ waitMs: 2000 });
  expect(orders).toHaveLength(1);
  return orders[0]!;
}

/** Opens `ticket` on every slave (filled); with `profits`, closes it too (one profit per slave). Returns the signal id. */
async function trade(b: BridgeTenant, ticket: number, profits: number[] | null): Promise<string> {
  const open = await b.master.signal(masterEvent("OPEN", { ticket, volume: 1, price: 1.08456 }));
  expect(open.status).toBe(201);
  const opens = await Promise.all(b.slaves.map((s) => takeOne(s)));
  await Promise.all(opens.map((o, i) => b.slaves[i]!.report({ orderId: o.orderId, status: "filled", slaveTicket: `${ticket}${i}`, fillPrice: "1.08456", volume: o.volume!, point: "0.00001" })));
  if (profits) {
    await b.master.signal(masterEvent("CLOSE", { ticket, price: 1.087 }));
    const closes = await Promise.all(b.slaves.map((s) => takeOne(s)));
    await Promise.all(closes.map((o, i) => b.slaves[i]!.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.087", point: "0.00001", profit: profits[i]! })));
  }
  return open.body.signalId;
}

const BAD_DAYS: [name: string, body: unknown, path: string, message: string][] = [
  ["6 days", { closedTradesDays: 6, auditDays: 365 }, "closedTradesDays", RETENTION_MESSAGES.days],
  ["3651 days", { closedTradesDays: 365, auditDays: 3651 }, "auditDays", RETENTION_MESSAGES.days],
  ["a fraction", { closedTradesDays: 30.5, auditDays: 365 }, "closedTradesDays", RETENTION_MESSAGES.days],
  ["text", { closedTradesDays: "30", auditDays: 365 }, "closedTradesDays", RETENTION_MESSAGES.days],
  ["null", { closedTradesDays: 30, auditDays: null }, "auditDays", RETENTION_MESSAGES.days],
  ["missing", { closedTradesDays: 30 }, "auditDays", RETENTION_MESSAGES.days],
];

describe.each(databaseKinds())("retention API on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let a: SignedIn;
  let b: SignedIn;
  let ab: BridgeTenant;
  let bb: BridgeTenant;
  let aClosed: string;
  let aActive: string;
  let bClosed: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    a = await signUp(server.url);
    b = await signUp(server.url);
    ab = await setUpBridge(a.api, server.url, 2);
    bb = await setUpBridge(b.api, server.url, 1);
    aClosed = await trade(ab, 9001, [12.5, -3]);
    aActive = await trade(ab, 9002, null);
    bClosed = await trade(bb, 9003, [1]);
  });
  afterAll(async () => {
    await ab?.close();
    await bb?.close();
    await server?.stop();
    await db?.drop();
  });

  it("answers the defaults until saved, saves a policy (audited), and keeps each organisation's own", async () => {
    expect((await a.api.get("/api/retention")).body).toEqual({ closedTradesDays: 365, auditDays: 365, saved: false, updatedAt: null });
    const put = await a.api.put("/api/retention", { closedTradesDays: 30, auditDays: 90 });
    expect(put.status).toBe(200);
    const saved = retentionPolicySchema.parse(put.body);
    expect(saved).toMatchObject({ closedTradesDays: 30, auditDays: 90, saved: true });
    expect(Date.parse(saved.updatedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await a.api.get("/api/retention")).body).toEqual(saved);
    // The other organisation still has the defaults.
    expect((await b.api.get("/api/retention")).body).toEqual({ closedTradesDays: 365, auditDays: 365, saved: false, updatedAt: null });
    const logs = auditLogListSchema.parse((await a.api.get("/api/audit-logs?type=system")).body);
    expect(logs.map((l) => l.message)).toContain("Data retention changed: closed trades kept 30 days (was 365), audit entries kept 90 days (was 365)");
    expect(auditLogListSchema.parse((await b.api.get("/api/audit-logs?type=system")).body).map((l) => l.message).filter((m) => m.startsWith("Data retention"))).toEqual([]);
  });

  it.each(BAD_DAYS)("refuses %s with a 400 naming the field, changing nothing", async (_name, body, path, message) => {
    const before = (await a.api.get("/api/retention")).body;
    const res = await a.api.put("/api/retention", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.issues).toEqual([{ path, message }]);
    expect((await a.api.get("/api/retention")).body).toEqual(before);
  });

  it("needs a session", async () => {
    const anonymous = a.api.withToken(null);
    expect((await anonymous.get("/api/retention")).status).toBe(401);
    expect((await anonymous.put("/api/retention", { closedTradesDays: 30, auditDays: 30 })).status).toBe(401);
    expect((await anonymous.get("/api/signals/export?format=json")).status).toBe(401);
  });

  it("exports the caller's closed trades with every order of their slaves, as JSON", async () => {
    const res = await a.api.get("/api/signals/export?format=json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="trades-[\d-]+\.json"$/);
    const trades = exportedTradeSchema.array().parse(res.body);
    expect(trades.map((t) => t.id)).toEqual([aClosed]);
    const [t] = trades;
    expect(t).toMatchObject({ masterTicket: "9001", status: "closed" });
    expect(t!.closedAt).not.toBeNull();
    expect(t!.executions.map((e) => [e.action, e.status, e.slaveAccountNumber]).sort()).toEqual([
      ["CLOSE", "closed", "7001"],
      ["CLOSE", "closed", "7002"],
      ["OPEN", "filled", "7001"],
      ["OPEN", "filled", "7002"],
    ]);
    expect(t!.executions.filter((e) => e.action === "CLOSE").map((e) => Number(e.profit)).sort((x, y) => x - y)).toEqual([-3, 12.5]);
    expect(new Set(t!.executions.map((e) => e.slaveAccountId))).toEqual(new Set(ab.slaveIds));
    // The other organisation's export holds its own trade only; an active trade is never exported.
    const theirs = exportedTradeSchema.array().parse((await b.api.get("/api/signals/export?format=json")).body);
    expect(theirs.map((x) => x.id)).toEqual([bClosed]);
    expect(JSON.stringify(res.body)).not.toContain(aActive);
  });

  it("exports the same as CSV, one row per order, numbers left as numbers", async () => {
    const res = await a.api.get("/api/signals/export?format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="trades-[\d-]+\.csv"$/);
    const rows = parseCsv(res.body as string);
    expect(rows[0]).toEqual([...TRADE_EXPORT_CSV_COLUMNS]);
    const col = (name: (typeof TRADE_EXPORT_CSV_COLUMNS)[number]) => TRADE_EXPORT_CSV_COLUMNS.indexOf(name);
    const body = rows.slice(1);
    expect(body).toHaveLength(4);
    expect(new Set(body.map((r) => r[col("signalId")]))).toEqual(new Set([aClosed]));
    expect(body.map((r) => r[col("profit")]).filter(Boolean).sort()).toEqual(["-3", "12.5"]);
    expect(body.every((r) => r.length === TRADE_EXPORT_CSV_COLUMNS.length)).toBe(true);
  });

  it("limits the export to trades that ended within from/to, and refuses a bad range", async () => {
    const ids = async (query: string) => exportedTradeSchema.array().parse((await a.api.get(`/api/signals/export?format=json&${query}`)).body).map((t) => t.id);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect(await ids(`from=${hourAgo}&to=${inAnHour}`)).toEqual([aClosed]);
    expect(await ids(`to=${hourAgo}`)).toEqual([]);
    expect(await ids(`from=${inAnHour}`)).toEqual([]);
    const reversed = await a.api.get(`/api/signals/export?format=json&from=${inAnHour}&to=${hourAgo}`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.issues).toEqual([{ path: "querystring.to", message: RETENTION_MESSAGES.fromAfterTo }]);
    const bad = await a.api.get("/api/signals/export?format=json&from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ path: "querystring.from", message: RETENTION_MESSAGES.datetime }]);
    expect((await a.api.get("/api/signals/export?format=xml")).status).toBe(400);
  });
});

/**
 * A verdict for every copy (issue 13): each (signal, slave) gets exactly one opening execution —
 * queued, rejected or skipped with a reason code — visible on GET /api/executions, counted by
 * GET /api/executions/verdicts, filterable in the audit log (reasonCode), and a skipped copy is
 * neither a success nor a failure (slave summary, bridge success rate).
 */
import { describe, expect, it } from "vitest";
import { auditLogListSchema, executionListSchema, executionVerdictsSchema, type Execution } from "#contract";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, type BridgeTenant } from "../support/bridge.ts";
import type { SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("copy verdicts on %s", (kind) => {
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 91_000;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 3, (state) => ({ t, b } = state));

  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  const auditWith = async (query: string) => {
    const res = await t.api.get(`/api/audit-logs?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return auditLogListSchema.parse(res.body);
  };
  const verdicts = async (query = "") => {
    const res = await t.api.get(`/api/executions/verdicts${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return executionVerdictsSchema.parse(res.body);
  };
  /** One row per slave, in slave order: [status, reasonCode, errorMessage]. */
  const verdictRows = (execs: Execution[]) =>
    b.slaveIds.map((id) => {
      const mine = execs.filter((e) => e.slaveAccountId === id && (e.action === "OPEN" || e.action === "PENDING_OPEN"));
      expect(mine, `one opening execution for ${id}`).toHaveLength(1);
      return [mine[0]!.status, mine[0]!.reasonCode ?? null, mine[0]!.errorMessage];
    });

  it("records one verdict per slave: skipped by a side filter, rejected by a disabled mapping, queued for the rest", async () => {
    const [s1, s2, s3] = b.slaveIds as [string, string, string];
    const put = await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "multiplier" }, allowedSides: "sell" });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.x", slaveAccountId: s2, lotMultiplier: 1 });
    const map = (await t.api.get("/api/symbol-maps")).body[0];
    await t.api.put(`/api/symbol-maps/${map.id}`, { enabled: false });

    const tk = nextTicket();
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk, symbol: "EURUSD", side: "BUY", volume: 1 }));
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    // The skip is neither queued nor rejected.
    expect(open.body).toMatchObject({ queued: 1, rejected: 1 });
    const execs = await executionsOf(open.body.signalId);
    expect(verdictRows(execs)).toEqual([
      ["skipped", "side_filtered", "Only SELL trades are copied"],
      ["rejected", "mapping_disabled", "Symbol mapping disabled for EURUSD"],
      ["pending", null, null],
    ]);
    const skipped = execs.find((e) => e.slaveAccountId === s1)!;
    // Never delivered, decided at once: reported when created, no volume sized.
    expect(skipped).toMatchObject({ action: "OPEN", symbol: "EURUSD", side: "BUY", volume: null });
    expect(skipped.reportedAt).toBe(skipped.createdAt);
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
    expect((await b.slaves[1]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
    const [order] = (await b.slaves[2]!.poll({ waitMs: 1000 })).orders;
    expect(order).toMatchObject({ action: "OPEN", masterTicket: String(tk) });

    // Follow-ups go only to the slave holding a copy: no second verdict for the others.
    await b.slaves[2]!.report({ orderId: order!.orderId, status: "filled", slaveTicket: 555, fillPrice: "1.08450", point: "0.00001", volume: order!.volume! });
    const close = await b.master.signal(masterEvent("CLOSE", { ticket: tk, price: "1.087" }));
    expect(close.body).toMatchObject({ queued: 1, rejected: 0 });
    const after = await executionsOf(open.body.signalId);
    expect(after.filter((e) => e.action === "CLOSE").map((e) => e.slaveAccountId)).toEqual([s3]);
    expect(verdictRows(after).map((r) => r[0])).toEqual(["skipped", "rejected", "filled"]);

    // The master's entry lists the skip with its reason code; the rejected copy's warning carries it too.
    const master = (await auditWith("type=trade&limit=200")).find((l) => l.signalId === open.body.signalId && l.source === "bridge" && l.message.startsWith("Master OPEN"));
    expect(master?.message).toMatch(/1 order\(s\) queued, 1 blocked, 1 skipped$/);
    expect(master?.metadata?.skips).toEqual([{ accountId: s1, code: "side_filtered", reasonCode: "side_filtered", reason: "Only SELL trades are copied" }]);
    const warning = (await auditWith("level=warning")).find((l) => l.accountId === s2 && l.signalId === open.body.signalId);
    expect(warning?.metadata).toMatchObject({ code: "mapping_disabled", reasonCode: "mapping_disabled" });

    // Audit filter by reason code: the skip's master entry, the rejection's warning, nothing else.
    expect((await auditWith("reasonCode=side_filtered")).map((l) => l.id)).toEqual([master!.id]);
    expect((await auditWith("reasonCode=mapping_disabled")).map((l) => l.id)).toEqual([warning!.id]);
    expect((await auditWith("reasonCode=mapping_disabled&level=info")).map((l) => l.id)).toEqual([]);
    expect(await auditWith("reasonCode=expired")).toEqual([]);

    // Today's verdicts.
    const today = await verdicts();
    expect(today).toMatchObject({ copied: 1, skipped: 1, rejected: 1 });
    expect(today.reasons).toEqual([
      { code: "mapping_disabled", text: "Symbol mapping disabled", count: 1 },
      { code: "side_filtered", text: "Side filtered out", count: 1 },
    ]);
    expect(await verdicts(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toMatchObject({ copied: 0, skipped: 0, rejected: 0, reasons: [] });

    // A skipped copy was never attempted: not in the slave's total, not in the bridge success rate.
    expect((await t.api.get(`/api/executions/summary?accountId=${s1}`)).body).toEqual({ total: 0, successful: 0, successRate: 0 });
    expect((await t.api.get(`/api/executions/summary?accountId=${s3}`)).body).toEqual({ total: 1, successful: 1, successRate: 100 });
    // Reported in 24 h: the rejected open, the filled open (the close is still pending) → 1 of 2.
    expect((await t.api.get("/api/bridge/stats")).body).toMatchObject({ successRate: 50 });
  });

  it("skips every slave with 'Copying is paused' while the organisation is paused", async () => {
    const pause = await t.api.post("/api/emergency/pause-all", {});
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    expect(open.body).toMatchObject({ queued: 0, rejected: 0 });
    expect(verdictRows(await executionsOf(open.body.signalId))).toEqual([
      ["skipped", "paused", "Copying is paused"],
      ["skipped", "paused", "Copying is paused"],
      ["skipped", "paused", "Copying is paused"],
    ]);
    for (const s of b.slaves) expect((await s.poll({ waitMs: 0, redeliver: true })).orders.filter((o) => o.action !== "CLOSE_ALL")).toEqual([]);
    expect(await verdicts()).toMatchObject({ copied: 0, skipped: 3, rejected: 0, reasons: [{ code: "paused", text: "Copying paused", count: 3 }] });
    const filtered = await auditWith("reasonCode=paused");
    expect(filtered.map((l) => l.signalId)).toEqual([open.body.signalId]);
    // No audit entry per skipped copy: only the master's entry mentions the signal.
    expect((await auditWith("type=trade&limit=200")).filter((l) => l.signalId === open.body.signalId)).toHaveLength(1);
  });

  it("rejects a malformed reason code or since with a 400 naming the field", async () => {
    const bad = await t.api.get("/api/audit-logs?reasonCode=DROP%20TABLE");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("reasonCode");
    const since = await t.api.get("/api/executions/verdicts?since=yesterday");
    expect(since.status).toBe(400);
    expect(JSON.stringify(since.body)).toContain("since");
  });
});

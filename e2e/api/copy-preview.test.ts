/**
 * POST /api/copy/preview (issue 13, docs/bridge-protocol.md §9): a master event → each slave's
 * verdict and order, written nowhere; and the `x-cb-confirm` header of a signed master signal,
 * which refuses a send whose preview changed since the user confirmed it (409 preview_changed,
 * nothing written) and lets a matching one through (201).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { copyPreviewSchema, PREVIEW_CHANGED_MESSAGE, type CopySettingsInput, type SignalEventInput } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, opensslSignature, nowS, rawPost, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const SIGNAL_PATH = { OPEN: "/v1/master/signal/open", CLOSE: "/v1/master/signal/close" } as const;

describe.each(databaseKinds())("copy preview on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 40_000;
  const nextTicket = () => ++ticket;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  beforeEach(async () => {
    await b?.close();
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 4);
    const [, s2, s3, s4] = b.slaveIds as [string, string, string, string];
    // S1: defaults (multiplier 1); S2: fixed 0.10 lots without TP; S3: sells only; S4: EURUSD mapping disabled.
    await putSettings(s2, { sizing: { mode: "fixed", fixedVolume: "0.10" }, copyTakeProfit: false });
    await putSettings(s3, { sizing: { mode: "multiplier" }, allowedSides: "sell" });
    const map = await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s4, lotMultiplier: 1, enabled: false });
    expect(map.status, JSON.stringify(map.body)).toBe(201);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  async function putSettings(slaveId: string, settings: CopySettingsInput) {
    const res = await t.api.put(`/api/copy-settings/${slaveId}`, settings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  /** The preview answer, untyped: a 4xx carries `{ error, code, issues }` instead (parse a 200 with copyPreviewSchema). */
  const preview = (event: unknown) => t.api.post("/api/copy/preview", event);
  /** Everything a signal could write: signals, executions and audit entries, as the API lists them. */
  const written = async () => ({
    signals: (await t.api.get("/api/signals?limit=100")).body,
    executions: (await t.api.get("/api/executions?limit=100")).body,
    audit: (await t.api.get("/api/audit-logs?limit=100")).body,
  });
  /** The signed master request of `event`, with the confirm header when given. */
  const sendSigned = (event: SignalEventInput, confirm?: string) => {
    const path = SIGNAL_PATH[event.type as keyof typeof SIGNAL_PATH];
    const body = JSON.stringify(event);
    const ts = nowS();
    const key = b.keys.master;
    const headers: Record<string, string> = { "x-api-key": key.apiKey, "x-ts": String(ts), "x-signature": opensslSignature(key.secret, `POST${path}${ts}${body}`) };
    if (confirm !== undefined) headers["x-cb-confirm"] = confirm;
    return rawPost(server.url, path, body, headers);
  };

  it("previews an OPEN: each slave's verdict, reason and exact order, and writes nothing", async () => {
    const [s1, s2, s3, s4] = b.slaveIds as [string, string, string, string];
    const ts = nowS();
    const event = masterEvent("OPEN", { ticket: nextTicket(), volume: "0.50", price: "1.08456", sl: "1.08", tp: "1.09" }, { ts });
    const before = await written();
    const res = await preview(event);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = copyPreviewSchema.parse(res.body);
    expect(body.event).toMatchObject({ type: "OPEN", ticket: String(ticket), symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50" });
    const bySlave = new Map(body.slaves.map((s) => [s.slaveAccountId, s]));
    expect(body.slaves.map((s) => s.slaveAccountId)).toEqual([s1, s2, s3, s4]);
    expect(bySlave.get(s1)).toEqual({
      slaveAccountId: s1,
      name: "S1",
      verdict: "queued",
      reasonCode: null,
      reason: null,
      order: { action: "OPEN", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.08456", sl: "1.08", tp: "1.09", expiresAtMs: (ts + 60) * 1000 },
    });
    expect(bySlave.get(s2)?.order).toMatchObject({ volume: "0.10", sl: "1.08", tp: null });
    expect(bySlave.get(s3)).toMatchObject({ name: "S3", verdict: "skipped", reasonCode: "side_filtered", reason: "Only SELL trades are copied", order: null });
    expect(bySlave.get(s4)).toMatchObject({ name: "S4", verdict: "rejected", reasonCode: "mapping_disabled", reason: "Symbol mapping disabled for EURUSD", order: null });
    expect(body.confirmToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Nothing written: no signal, no order, no audit entry; no slave receives anything.
    expect(await written()).toEqual(before);
    for (const slave of b.slaves) expect((await slave.poll({ waitMs: 0 })).orders).toEqual([]);
    // The ticket is still free: the real send opens it and queues what the preview said.
    const sent = await b.master.signal(event);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ queued: 2, rejected: 1 });
  });

  it("gives the same token for the same preview, a different one once a verdict changes", async () => {
    const event = masterEvent("OPEN", { ticket: nextTicket() });
    const { idempotencyKey: _k, ...withoutKey } = event;
    const a = (await preview(event)).body.confirmToken;
    expect((await preview(withoutKey)).body.confirmToken).toBe(a);
    await putSettings(b.slaveIds[0]!, { sizing: { mode: "fixed", fixedVolume: "0.20" } });
    expect((await preview(event)).body.confirmToken).not.toBe(a);
  });

  it("previews a CLOSE of an open signal: each holding's exact share, and writes nothing", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    const tk = nextTicket();
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk, volume: "1" }));
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const before = await written();
    const res = await preview(masterEvent("CLOSE", { ticket: tk, volume: "0.5", price: "1.09" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = copyPreviewSchema.parse(res.body);
    // Copies made by one event share a creation time: their order is not defined, sort by name.
    const lines = body.slaves.map((s) => [s.name, s.verdict, s.order?.action, s.order?.volume, s.order?.price]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(lines).toEqual([
      ["S1", "queued", "CLOSE", "0.50", "1.09"],
      ["S2", "queued", "CLOSE", "0.05", "1.09"],
    ]);
    expect(body.slaves.map((s) => s.slaveAccountId).sort()).toEqual([s1, s2].sort());
    expect(await written()).toEqual(before);
  });

  it("answers 404 for a follow-up of a ticket with no open signal", async () => {
    const res = await preview(masterEvent("CLOSE", { ticket: nextTicket() }));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/^Open signal for master ticket \d+ not found$/);
  });

  it("refuses a malformed event with 400 naming the field, and writes nothing", async () => {
    const before = await written();
    const bad = await preview({ ...masterEvent("OPEN", { ticket: nextTicket() }), order: { ...masterEvent("OPEN", { ticket: 1 }).order, side: "LONG" } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toContain("order.side");
    const zero = await preview(masterEvent("OPEN", { ticket: nextTicket(), volume: 0 }));
    expect(zero.status).toBe(400);
    expect(zero.body.issues).toEqual([{ path: "order.volume", message: "Volume must be greater than 0 to open" }]);
    const noTs = await preview({ ...masterEvent("OPEN", { ticket: nextTicket() }), ts: undefined });
    expect(noTs.status).toBe(400);
    expect(noTs.body.issues.map((i: { path: string }) => i.path)).toContain("ts");
    expect(await written()).toEqual(before);
  });

  it("answers 409 when the organisation has no master account", async () => {
    const lone = await signUp(server.url);
    const res = await lone.api.post("/api/copy/preview", masterEvent("OPEN", { ticket: nextTicket() }));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("No master account: add a master account before previewing a signal");
  });

  it("needs a dashboard session", async () => {
    const res = await t.api.withToken(null).post("/api/copy/preview", masterEvent("OPEN", { ticket: nextTicket() }));
    expect(res.status).toBe(401);
  });

  describe("x-cb-confirm on a signed master signal", () => {
    it("sends when the preview still matches (201, orders as previewed)", async () => {
      const event = masterEvent("OPEN", { ticket: nextTicket(), volume: "0.3" });
      const p = copyPreviewSchema.parse((await preview(event)).body);
      const res = await sendSigned(event, p.confirmToken);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ queued: 2, rejected: 1 });
      const orders = (await b.slaves[1]!.poll({ waitMs: 1000 })).orders;
      expect(orders.map((o) => o.volume)).toEqual([p.slaves[1]!.order!.volume]);
    });

    it("refuses with 409 preview_changed when a verdict changed, and writes nothing", async () => {
      const event = masterEvent("OPEN", { ticket: nextTicket() });
      const p = copyPreviewSchema.parse((await preview(event)).body);
      // The user confirmed "S3 skipped"; meanwhile S3 starts copying buys.
      await putSettings(b.slaveIds[2]!, { sizing: { mode: "multiplier" }, allowedSides: "both" });
      const before = await written();
      const res = await sendSigned(event, p.confirmToken);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: PREVIEW_CHANGED_MESSAGE, code: "preview_changed" });
      expect(await written()).toEqual(before);
      for (const slave of b.slaves) expect((await slave.poll({ waitMs: 0 })).orders).toEqual([]);
      // Nothing was kept of the refused request either: the same idempotency key sends later.
      const again = await sendSigned(event);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body).toMatchObject({ queued: 3, rejected: 1 });
    });

    it("refuses a token that is not this preview's (another event, or garbage)", async () => {
      const first = masterEvent("OPEN", { ticket: nextTicket() });
      const token = copyPreviewSchema.parse((await preview(first)).body).confirmToken;
      const other = masterEvent("OPEN", { ticket: nextTicket(), volume: "2" });
      const before = await written();
      expect((await sendSigned(other, token)).status).toBe(409);
      expect((await sendSigned(other, "garbage")).body.code).toBe("preview_changed");
      expect(await written()).toEqual(before);
    });

    it("confirms a CLOSE preview too; without the header nothing changes for EAs", async () => {
      const tk = nextTicket();
      expect((await sendSigned(masterEvent("OPEN", { ticket: tk }))).status).toBe(201);
      const close = masterEvent("CLOSE", { ticket: tk });
      const p = copyPreviewSchema.parse((await preview(close)).body);
      expect(p.slaves).toHaveLength(2);
      const res = await sendSigned(close, p.confirmToken);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ type: "CLOSE", queued: 2 });
    });
  });
});

/**
 * The signal lifetime checked again at hand-out (issue 12, copy settings `signalLifetimeSeconds`;
 * server/features/copy-engine/delivery/expiry.ts): an open queued within its lifetime but not
 * handed out before the lifetime ends is rejected ("Signal expired before delivery: …") and never
 * delivered; an open handed out once keeps being redelivered with its `expiresAtMs` (the EA
 * decides). Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { executionListSchema } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, nowS, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket, type RecordingSocket } from "../support/ws.ts";

/** Lifetime used here, seconds: long enough to queue the order, short enough to wait out. */
const LIFETIME_S = 2;

describe.each(databaseKinds())("order expiry at hand-out on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ws: RecordingSocket;
  let ticket = 9100;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  beforeEach(async () => {
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 1);
    ws = await openSocket(server.url, { token: t.login.token });
    const saved = await t.api.put(`/api/copy-settings/${b.slaveIds[0]!}`, { sizing: { mode: "multiplier" }, signalLifetimeSeconds: LIFETIME_S });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    ws?.close();
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  /** Opens a ticket now; returns the signal id and the order's expiry (unix ms). */
  const openNow = async () => {
    const ts = nowS();
    const res = await b.master.signal(masterEvent("OPEN", { ticket: ++ticket }, { ts }));
    expect(res.body).toMatchObject({ queued: 1, rejected: 0 });
    return { signalId: res.body.signalId, expiresAtMs: (ts + LIFETIME_S) * 1000 };
  };
  const waitUntil = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));

  it("rejects an open that expired before its first hand-out, and never delivers it", async () => {
    const slave = b.slaves[0]!;
    const { signalId, expiresAtMs } = await openNow();
    await waitUntil(expiresAtMs + 100);

    expect((await slave.poll({ waitMs: 0 })).orders).toEqual([]);
    const [exec] = await executionsOf(signalId);
    expect(exec).toMatchObject({
      status: "rejected",
      errorMessage: `Signal expired before delivery: older than the ${LIFETIME_S} s signal lifetime`,
    });
    expect(exec!.reportedAt).not.toBeNull();
    await ws.waitFor((m) => m.type === "execution_result" && m.data.id === exec!.id && m.data.status === "rejected");
    // Not even a reconnecting EA (redeliver) gets it.
    expect((await slave.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);

    const audit = (await t.api.get("/api/audit-logs?level=warning")).body as { message: string; signalId: string | null }[];
    expect(audit.some((l) => l.signalId === signalId && l.message.includes("Signal expired before delivery"))).toBe(true);
  });

  it("keeps redelivering an open handed out before it expired, with its expiresAtMs", async () => {
    const slave = b.slaves[0]!;
    const { signalId, expiresAtMs } = await openNow();
    const first = (await slave.poll({ waitMs: 1000 })).orders;
    expect(first.map((o) => [o.action, o.deliveryCount, o.expiresAtMs])).toEqual([["OPEN", 1, expiresAtMs]]);
    await waitUntil(expiresAtMs + 100);

    const again = (await slave.poll({ waitMs: 0, redeliver: true })).orders;
    expect(again.map((o) => [o.orderId, o.deliveryCount, o.expiresAtMs])).toEqual([[first[0]!.orderId, 2, expiresAtMs]]);
    const [exec] = await executionsOf(signalId);
    expect(exec).toMatchObject({ status: "pending", errorMessage: null });
    // The EA decides: it may still report it (here: refused by its own expiry check).
    expect(await slave.report({ orderId: first[0]!.orderId, status: "rejected", errorMessage: "Order expired" })).toMatchObject({ status: "rejected", duplicate: false });
  });
});

/**
 * Deleting an account (issue 13: "deleting the master or a slave says what happens to its keys and
 * history, and a deleted account's trades and analytics stay readable"), on both databases: a
 * soft delete. The account leaves the lists, copying and the bridge (its bound keys are deleted,
 * its EA is refused), its pending orders are cancelled (reason `account_deleted`), and its
 * executions, analytics and audit entries stay readable. The same number can be added again.
 */
import { describe, expect, it } from "vitest";
import {
  accountListSchema,
  apiKeyListSchema,
  auditLogListSchema,
  copySettingsListSchema,
  deleteAccountResponseSchema,
  executionListSchema,
  performanceResponseSchema,
} from "#contract";
import { BridgeClient, BridgeHttpError } from "../../tools/bridge-client/client.ts";
import { createKey, masterEvent, type BridgeTenant } from "../support/bridge.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import type { RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

/** The HTTP status a bridge call answered (2xx → 200). */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    if (err instanceof BridgeHttpError) return err.status;
    throw err;
  }
}

describe.each(databaseKinds())("account delete on %s", (kind) => {
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 5100;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 2, (state) => ({ server, t, b } = state));

  const ids = async (path: string) => accountListSchema.parse((await t.api.get(path)).body).map((a) => a.id);

  /** One copied round trip on both slaves (open filled, close closed with a profit). */
  async function roundTrip(): Promise<void> {
    const tk = nextTicket();
    await b.master.signal(masterEvent("OPEN", { ticket: tk, price: 1.08456 }));
    for (const [j, s] of b.slaves.entries()) {
      const [o] = (await s.poll({ waitMs: 2000 })).orders;
      await s.report({ orderId: o!.orderId, status: "filled", slaveTicket: 10 * tk + j, fillPrice: "1.08456", point: "0.00001", volume: "1.00" });
    }
    await b.master.signal(masterEvent("CLOSE", { ticket: tk, price: 1.085 }));
    for (const s of b.slaves) {
      const [o] = (await s.poll({ waitMs: 2000 })).orders;
      await s.report({ orderId: o!.orderId, status: "closed", volume: "1.00", profit: 10 });
    }
  }

  it("a deleted slave leaves lists, copying and the bridge; its keys go, its pending orders are cancelled, its history stays", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await roundTrip();
    await b.slaves[0]!.slaveHeartbeat({ balance: "10010.00", equity: "10010.00" });
    // Queued for both, never handed out: deleting S1 cancels its copy, S2 keeps its own.
    const queued = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(queued.body.queued).toBe(2);
    const execsBefore = executionListSchema.parse((await t.api.get(`/api/executions?accountId=${s1}`)).body);
    for (const id of [s1, s2]) {
      expect((await t.api.post("/api/symbol-maps", { masterSymbol: "GBPUSD", slaveSymbol: "GBPUSD.m", slaveAccountId: id })).status).toBe(201);
    }

    const res = await t.api.delete(`/api/accounts/${s1}`);
    expect(res.status).toBe(200);
    const body = deleteAccountResponseSchema.parse(res.body);
    expect(body.deletedApiKeys).toEqual([{ id: b.keys.slaves[0]!.id, name: "SLAVE key", apiKey: b.keys.slaves[0]!.apiKey }]);
    expect(body.cancelledOrders).toBe(1);

    // Gone from the lists and from lookups; deleting twice → 404.
    expect(await ids("/api/accounts")).not.toContain(s1);
    expect(await ids("/api/accounts/slaves")).toEqual([s2]);
    expect((await t.api.get(`/api/accounts/${s1}`)).status).toBe(404);
    expect((await t.api.delete(`/api/accounts/${s1}`)).status).toBe(404);
    // Its mappings are kept but no longer shown (nor acting: it is out of copying).
    expect(((await t.api.get("/api/symbol-maps")).body as { slaveAccountId: string }[]).map((m) => m.slaveAccountId)).toEqual([s2]);
    expect(copySettingsListSchema.parse((await t.api.get("/api/copy-settings")).body).map((c) => c.slaveAccountId)).toEqual([s2]);
    // …but still there for naming history: status kept, deletedAt set.
    const all = accountListSchema.parse((await t.api.get("/api/accounts?includeDeleted=true")).body);
    const gone = all.find((a) => a.id === s1);
    expect(gone).toMatchObject({ alias: "S1", accountNumber: "7001", status: "active" });
    expect(gone?.deletedAt).toEqual(expect.any(String));
    expect(all.find((a) => a.id === s2)?.deletedAt ?? null).toBeNull();
    expect((await t.api.get("/api/accounts?includeDeleted=maybe")).status).toBe(400);

    // Its key is deleted: its EA is refused from its next request.
    const keys = apiKeyListSchema.parse((await t.api.get("/api/bridge/api-keys")).body).map((k) => k.id);
    expect(keys).not.toContain(b.keys.slaves[0]!.id);
    expect(await statusOf(b.slaves[0]!.poll({ waitMs: 0 }))).toBe(401);
    expect(await statusOf(b.slaves[0]!.slaveHeartbeat({ balance: "1.00", equity: "1.00" }))).toBe(401);

    // Its queued copy is cancelled with the verdict code; S2's is untouched.
    const queuedExecs = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${queued.body.signalId}`)).body);
    expect(queuedExecs.find((e) => e.slaveAccountId === s1)).toMatchObject({ status: "cancelled", reasonCode: "account_deleted", errorMessage: "account deleted" });
    expect(queuedExecs.find((e) => e.slaveAccountId === s2)).toMatchObject({ status: "pending" });

    // Copying no longer includes it.
    const next = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(next.body.queued).toBe(1);
    const nextExecs = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${next.body.signalId}`)).body);
    expect(nextExecs.map((e) => e.slaveAccountId)).toEqual([s2]);

    // History stays readable: its executions (filter by its id), summary, analytics, audit.
    const execsAfter = executionListSchema.parse((await t.api.get(`/api/executions?accountId=${s1}`)).body);
    expect(execsAfter.map((e) => e.id).sort()).toEqual(execsBefore.map((e) => e.id).sort());
    expect(execsAfter.filter((e) => e.status === "filled" || e.status === "closed")).toHaveLength(2);
    expect((await t.api.get(`/api/executions/summary?accountId=${s1}`)).status).toBe(200);
    const perf = performanceResponseSchema.parse((await t.api.get("/api/analytics/performance?range=1h")).body);
    expect(perf.stats.some((s) => s.accountId === s1)).toBe(true);
    const one = performanceResponseSchema.parse((await t.api.get(`/api/analytics/performance?range=1h&accountId=${s1}`)).body);
    expect(one.summary.totalAccounts).toBe(1);
    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs")).body);
    const entry = logs.find((l) => l.source === "accounts" && l.accountId === s1 && l.message.includes("deleted"));
    expect(entry?.message).toBe(
      'Slave account S1 (7001) deleted (copying to it stopped; API key(s) "SLAVE key" deleted with it; 1 pending order(s) cancelled; its history is kept)',
    );
    expect(entry?.metadata).toMatchObject({ deletedApiKeys: [{ id: b.keys.slaves[0]!.id, name: "SLAVE key", scope: "SLAVE" }] });
    expect(logs.some((l) => l.accountId === s1 && l.message.includes("created"))).toBe(true);

    // The same number can be added again: a new account, a new key, and its EA works.
    const again = await t.api.post("/api/accounts", { accountNumber: "7001", alias: "S1 again", broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(s1);
    expect(await ids("/api/accounts/slaves")).toEqual([s2, again.body.id]);
  });

  it("an unbound SLAVE key cannot act for a deleted slave (404 like an unknown account)", async () => {
    const [s1] = b.slaveIds as [string, string];
    const unbound = await createKey(t.api, "SLAVE", null, "unbound");
    expect((await t.api.delete(`/api/accounts/${s1}`)).status).toBe(200);
    const client = new BridgeClient(server.url, unbound);
    try {
      expect(await statusOf(client.poll({ waitMs: 0, accountNumber: "7001" }))).toBe(404);
      expect(await statusOf(client.poll({ waitMs: 0, accountId: s1 }))).toBe(404);
      expect(await statusOf(client.poll({ waitMs: 0, accountNumber: "7002" }))).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("deleting the master deletes its key and stops copying; the slaves stay; a new master can be added", async () => {
    await roundTrip();
    const res = await t.api.delete(`/api/accounts/${b.masterId}`);
    expect(res.status).toBe(200);
    const body = deleteAccountResponseSchema.parse(res.body);
    expect(body.deletedApiKeys.map((k) => k.id)).toEqual([b.keys.master.id]);
    expect(body.cancelledOrders).toBe(0);
    expect((await t.api.get("/api/accounts/master")).status).toBe(404);
    expect(await ids("/api/accounts/slaves")).toEqual(b.slaveIds);
    expect((await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }))).status).toBe(401);
    // The slaves' keys are untouched.
    expect(await statusOf(b.slaves[0]!.poll({ waitMs: 0 }))).toBe(200);
    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs")).body);
    expect(logs.some((l) => l.message === 'Master account Main (50001234) deleted (slaves kept; copying stops until a new master is added; API key(s) "MASTER key" deleted with it; 0 pending order(s) cancelled; its history is kept)')).toBe(true);
    // Its signals stay readable.
    expect(((await t.api.get("/api/signals")).body as unknown[]).length).toBeGreaterThan(0);

    const again = await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main 2", broker: "IC Markets", platform: "MT5", role: "MASTER" });
    expect(again.status).toBe(201);
    expect((await t.api.get("/api/accounts/master")).body.id).toBe(again.body.id);
  });

  it("another tenant's account → 404 and nothing changes", async () => {
    const other = await signUp(server.url);
    expect((await other.api.delete(`/api/accounts/${b.slaveIds[0]!}`)).status).toBe(404);
    expect(await ids("/api/accounts/slaves")).toEqual(b.slaveIds);
    expect(await statusOf(b.slaves[0]!.poll({ waitMs: 0 }))).toBe(200);
  });
});

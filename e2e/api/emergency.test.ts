/**
 * Emergency controls that mean what they say (issue 13), over the real protocol on both databases:
 * Pause All and PANIC STOP cancel the opens still queued and never handed out (reason `paused`),
 * orders already handed out are left to the close-all, a slave polling after PANIC STOP receives
 * only the CLOSE_ALL; Resume copying; a slave's Enable leaves the organisation paused.
 */
import { describe, expect, it } from "vitest";
import { auditLogListSchema, copyPauseStatusSchema, executionListSchema, type Execution } from "#contract";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, type BridgeTenant } from "../support/bridge.ts";
import type { RunningServer } from "../support/server.ts";
import type { SignedIn } from "../support/tenant.ts";
import { openSocket } from "../support/ws.ts";

describe.each(databaseKinds())("emergency controls on %s", (kind) => {
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 9100;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 2, (state) => ({ server, t, b } = state));

  const executionsOf = async (signalId: string): Promise<Execution[]> => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  const copyPaused = async () => (await t.api.get("/api/auth/me")).body.tenant.copyPaused as boolean;
  const statusOf = async (id: string) => (await t.api.get(`/api/accounts/${id}`)).body.status as string;

  it("Pause All cancels the queued opens never handed out, with the reason, and leaves handed-out ones alone", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    const first = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(first.body.queued).toBe(2);
    // S1 takes the first open: it is handed out (delivery count 1) and may be executing.
    const taken = (await b.slaves[0]!.poll({ waitMs: 0 })).orders;
    expect(taken.map((o) => o.masterTicket)).toEqual([String(ticket)]);
    const second = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const pending = await b.master.signal(masterEvent("PENDING_OPEN", { ticket: nextTicket(), orderType: "LIMIT", price: 1.05 }));
    expect(second.body.queued).toBe(2);
    expect(pending.body.queued).toBe(2);

    const pause = await t.api.post("/api/emergency/pause-all");
    expect(pause.status).toBe(200);
    expect(pause.body).toEqual({ ok: true, pausedAccounts: 2, closeOrders: 0, cancelledOrders: 5 });

    const firstExecs = await executionsOf(first.body.signalId);
    expect(firstExecs.find((e) => e.slaveAccountId === s1)).toMatchObject({ status: "pending", reasonCode: null });
    expect(firstExecs.find((e) => e.slaveAccountId === s2)).toMatchObject({ status: "cancelled", reasonCode: "paused", errorMessage: "copying paused" });
    for (const signalId of [second.body.signalId, pending.body.signalId]) {
      const execs = await executionsOf(signalId);
      expect(execs).toHaveLength(2);
      for (const e of execs) {
        expect(e).toMatchObject({ status: "cancelled", reasonCode: "paused", errorMessage: "copying paused" });
        expect(e.reportedAt).not.toBeNull();
      }
    }
    // Polling after the pause: S2 gets nothing; S1 only the open it already had (redelivered).
    expect((await b.slaves[1]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders.map((o) => o.orderId)).toEqual([taken[0]!.orderId]);

    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs")).body);
    const entry = logs.find((l) => l.source === "emergency" && l.message.startsWith("All copying paused"));
    expect(entry?.message).toBe(`All copying paused by ${t.email} (2 slave account(s) paused, 5 queued order(s) cancelled)`);
    expect((entry?.metadata as { cancelledOrderIds: string[] }).cancelledOrderIds).toHaveLength(5);
  });

  it("PANIC STOP: a slave polling afterwards receives only the CLOSE_ALL", async () => {
    await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    await b.master.signal(masterEvent("PENDING_OPEN", { ticket: nextTicket(), orderType: "STOP", price: 1.2 }));
    const panic = await t.api.post("/api/emergency/panic-stop");
    expect(panic.body).toEqual({ ok: true, pausedAccounts: 2, closeOrders: 2, cancelledOrders: 4 });
    for (const s of b.slaves) {
      const orders = (await s.poll({ waitMs: 1000 })).orders;
      expect(orders.map((o) => o.action)).toEqual(["CLOSE_ALL"]);
    }
    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs")).body);
    expect(logs.some((l) => l.message === `PANIC STOP executed by ${t.email}: copying paused (2 slave account(s), 4 queued order(s) cancelled), close-all sent to 2 slave(s)`)).toBe(true);
  });

  it("ends a signal the master closed once the pause cancels every copy of it", async () => {
    const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    await b.master.signal(masterEvent("CLOSE", { ticket }));
    expect((await t.api.get("/api/signals?status=active")).body.map((s: { id: string }) => s.id)).toContain(open.body.signalId);
    const pause = await t.api.post("/api/emergency/pause-all");
    expect(pause.status).toBe(200);
    // The opens and the closes of the copies that will never exist are cancelled; nothing is left.
    const execs = await executionsOf(open.body.signalId);
    expect(execs.every((e) => e.status === "cancelled" && e.reasonCode === "paused")).toBe(true);
    expect((await t.api.get("/api/signals?status=closed")).body.map((s: { id: string }) => s.id)).toContain(open.body.signalId);
    for (const s of b.slaves) expect((await s.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
  });

  it("Resume copying: 409 when not paused; re-enables only the slaves the pause paused; announced", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    const notPaused = await t.api.post("/api/emergency/resume");
    expect(notPaused.status).toBe(409);
    expect(notPaused.body.error).toBe("Copying is not paused");

    // S2's user disabled it before the pause: Resume copying must leave it disabled.
    await t.api.put(`/api/accounts/${s2}`, { status: "paused" });
    await t.api.post("/api/emergency/pause-all");
    expect(copyPauseStatusSchema.parse((await t.api.get("/api/emergency/status")).body)).toEqual({ copyPaused: true, tenantPausedSlaves: 1 });

    const ws = await openSocket(server.url, { token: t.login.token });
    try {
      const resume = await t.api.post("/api/emergency/resume");
      expect(resume.status).toBe(200);
      expect(resume.body).toEqual({ ok: true, resumedAccounts: 1 });
      await ws.waitFor((m) => m.type === "tenant_updated" && m.data.copyPaused === false);
      await ws.waitFor((m) => m.type === "account_updated" && m.data.id === s1 && m.data.status === "active");
    } finally {
      ws.close();
    }
    expect(await copyPaused()).toBe(false);
    expect(await statusOf(s1)).toBe("active");
    expect(await statusOf(s2)).toBe("paused");
    expect(copyPauseStatusSchema.parse((await t.api.get("/api/emergency/status")).body)).toEqual({ copyPaused: false, tenantPausedSlaves: 0 });
    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs")).body);
    expect(logs.some((l) => l.source === "emergency" && l.message === `Copying resumed by ${t.email} (1 slave account(s) re-enabled)`)).toBe(true);

    const again = await t.api.post("/api/emergency/resume");
    expect(again.status).toBe(409);
    const resumed = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(resumed.body.queued).toBe(1);
  });

  it("Pause All announces the organisation's pause to every dashboard", async () => {
    const ws = await openSocket(server.url, { token: t.login.token });
    try {
      await t.api.post("/api/emergency/pause-all");
      await ws.waitFor((m) => m.type === "tenant_updated" && m.data.copyPaused === true);
    } finally {
      ws.close();
    }
  });

  it("a slave's Enable changes that slave only: the organisation stays paused and the next open is not copied", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await t.api.post("/api/emergency/pause-all");
    const enable = await t.api.put(`/api/accounts/${s1}`, { status: "active" });
    expect(enable.body.status).toBe("active");
    expect(await copyPaused()).toBe(true);
    expect(await statusOf(s2)).toBe("paused");
    const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(open.body.queued).toBe(0);
    // Each slave's verdict, where recorded, is a skip for the pause — never an order.
    for (const e of await executionsOf(open.body.signalId)) expect(e).toMatchObject({ status: "skipped", reasonCode: "paused" });
    for (const s of b.slaves) expect((await s.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);

    // Resume copying re-enables S2 (paused by the organisation); S1 is already active.
    expect((await t.api.post("/api/emergency/resume")).body).toEqual({ ok: true, resumedAccounts: 1 });
    expect((await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }))).body.queued).toBe(2);
  });

  it("a slave added while copying is paused starts paused by the organisation and Resume enables it", async () => {
    await t.api.post("/api/emergency/pause-all");
    const added = await t.api.post("/api/accounts", { accountNumber: "7999", alias: "Late", broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: "paused", isActive: false });
    expect((await t.api.post("/api/emergency/resume")).body).toEqual({ ok: true, resumedAccounts: 3 });
    expect(await statusOf(added.body.id)).toBe("active");
  });

  it("the pause's cancels are not counted as successful copies in the bridge stats", async () => {
    await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    await t.api.post("/api/emergency/pause-all");
    expect((await t.api.get("/api/bridge/stats")).body).toMatchObject({ successRate: 0 });
  });
});

/**
 * Execution reports riding on the slave's poll (docs/bridge-protocol.md §6.2 "Reports on the
 * poll"): each item is applied as a standalone report would be, before the poll claims, and
 * answered in the poll's `reports` in the items' order; one item's 400 / 403 / 404 / 409 refuses
 * neither the poll nor the other items; a parked poll carries its reports' effects at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executionListSchema, signalListSchema, type SlaveOrder } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket, type RecordingSocket } from "../support/ws.ts";

const fill = (o: SlaveOrder, ticket: string, fillPrice = "1.08451") => ({ orderId: o.orderId, status: "filled" as const, slaveTicket: ticket, fillPrice, volume: o.volume!, fillTime: 1_732_200_000.5, point: "0.00001" });

async function takeOne(slave: BridgeClient): Promise<SlaveOrder> {
  const { orders } = await slave.poll({ waitMs: 2000 });
  expect(orders).toHaveLength(1);
  return orders[0]!;
}

describe.each(databaseKinds())("reports on the poll on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let other: BridgeTenant;
  let ws: RecordingSocket;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
    other = await setUpBridge((await signUp(server.url)).api, server.url, 1);
    ws = await openSocket(server.url, { token: t.login.token });
  });
  afterAll(async () => {
    ws?.close();
    await b?.close();
    await other?.close();
    await server?.stop();
    await db?.drop();
  });

  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);

  it("applies each report before the claim and answers it in order; a bad item refuses only itself", async () => {
    const [s1, s2] = b.slaves as [BridgeClient, BridgeClient];
    const open = await b.master.signal(masterEvent("OPEN", { ticket: 8101 }));
    const o1 = await takeOne(s1);
    const o2 = await takeOne(s2);
    // Another tenant's order, to be named in s1's poll.
    await other.master.signal(masterEvent("OPEN", { ticket: 8101 }));
    const foreign = await takeOne(other.slaves[0]!);

    const answer = await s1.poll({
      waitMs: 0,
      redeliver: true,
      reports: [
        fill(o1, "11"),
        { orderId: o1.orderId, status: "bogus" },
        { ...fill(foreign, "99") },
        { ...fill(o2, "22"), accountNumber: "7002" },
        "not an object",
      ],
    });
    expect(answer.reports).toEqual([
      { orderId: o1.orderId, ok: true, duplicate: false, executionId: o1.orderId, status: "filled" },
      expect.objectContaining({ orderId: o1.orderId, ok: false, httpStatus: 400, code: "validation_failed", issues: [expect.objectContaining({ path: "reports.1.status" })] }),
      expect.objectContaining({ orderId: foreign.orderId, ok: false, httpStatus: 404, code: "not_found" }),
      expect.objectContaining({ orderId: o2.orderId, ok: false, httpStatus: 403, code: "forbidden_scope" }),
      expect.objectContaining({ orderId: null, ok: false, httpStatus: 400, code: "validation_failed" }),
    ]);
    // Reported before the claim: the redelivering poll does not hand the filled order out again.
    expect(answer.orders).toEqual([]);
    const byId = new Map((await executionsOf(open.body.signalId)).map((e) => [e.id, e]));
    expect(byId.get(o1.orderId)).toMatchObject({ status: "filled", slaveTicket: "11", fillPrice: "1.08451", slippagePts: "5.0" });
    // Neither the other account's order nor the other tenant's changed.
    expect(byId.get(o2.orderId)).toMatchObject({ status: "pending" });
    const otherPoll = await other.slaves[0]!.poll({ waitMs: 0, redeliver: true });
    expect(otherPoll.orders.map((o) => o.orderId)).toEqual([foreign.orderId]);
    expect(otherPoll.reports).toBeUndefined();

    // The same outcome again is a duplicate; a changed one is 409, next to an item that applies.
    const again = await s1.poll({ waitMs: 0, reports: [fill(o1, "11", "1.084510"), fill(o1, "12")] });
    expect(again.reports).toEqual([
      { orderId: o1.orderId, ok: true, duplicate: true, executionId: o1.orderId, status: "filled" },
      expect.objectContaining({ orderId: o1.orderId, ok: false, httpStatus: 409, code: "conflict" }),
    ]);
    expect((await s2.poll({ waitMs: 0, reports: [fill(o2, "22")] })).reports).toEqual([{ orderId: o2.orderId, ok: true, duplicate: false, executionId: o2.orderId, status: "filled" }]);
    await ws.waitFor((m) => m.type === "execution_result" && m.data.id === o2.orderId && m.data.status === "filled");
  });

  it("a parked poll has applied its reports while it waits, and the closes it carries end the signal", async () => {
    const [s1, s2] = b.slaves as [BridgeClient, BridgeClient];
    const open = await b.master.signal(masterEvent("OPEN", { ticket: 8202 }));
    const signalId = open.body.signalId;
    const [o1, o2] = [await takeOne(s1), await takeOne(s2)];
    // Both fills leave with polls that then wait for the next order.
    const parked = [s1.poll({ waitMs: 10_000, reports: [fill(o1, "31")] }), s2.poll({ waitMs: 10_000, reports: [fill(o2, "32")] })];
    await expect.poll(async () => (await executionsOf(signalId)).map((e) => e.status)).toEqual(["filled", "filled"]);

    await b.master.signal(masterEvent("CLOSE", { ticket: 8202, volume: 1, price: 1.0862 }));
    const answers = await Promise.all(parked);
    for (const [i, a] of answers.entries()) {
      expect(a.reports).toEqual([expect.objectContaining({ ok: true, duplicate: false, status: "filled" })]);
      expect(a.orders).toEqual([expect.objectContaining({ action: "CLOSE", slaveTicket: i === 0 ? "31" : "32" })]);
    }
    const closes = answers.map((a) => a.orders[0]!);
    await Promise.all([
      s1.poll({ waitMs: 0, reports: [{ orderId: closes[0]!.orderId, status: "closed", slaveTicket: "31", fillPrice: "1.0862", volume: "1.00", fillTime: 1_732_200_001, point: "0.00001" }] }),
      s2.poll({ waitMs: 0, reports: [{ orderId: closes[1]!.orderId, status: "closed", slaveTicket: "32", fillPrice: "1.0862", volume: "1.00", fillTime: 1_732_200_001, point: "0.00001" }] }),
    ]);
    await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === signalId);
    const signal = signalListSchema.parse((await t.api.get("/api/signals?status=closed")).body).find((s) => s.id === signalId);
    expect(signal).toBeDefined();
  });
});

/**
 * Group commit of master signals over HTTP (issue 15 goal 3): concurrent POSTs from one master all
 * get their 201 with their own orders; chains of OPEN → MODIFY → CLOSE of many tickets sent side by
 * side keep each ticket's order in what is stored; a retry of a batched event replays its first
 * answer; an event failing among concurrent ones gets its own 4xx while the others commit, and its
 * key stays usable. (The batching itself — batch sizes, savepoints, a failed commit — is shown in
 * server/features/copy-engine/signal-batcher.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogListSchema } from "#contract";
import { BridgeClient } from "../../tools/bridge-client/client.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("signal group commit over HTTP on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let master: BridgeClient;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 3);
    // Enough connections that the requests really are in flight together.
    master = new BridgeClient(server.url, b.keys.master, { connections: 32 });
  });
  afterAll(async () => {
    await master?.close();
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  /** Master audit entries (one per stored event) oldest first: the order the events were applied. */
  const appliedOrder = async () => {
    const logs = auditLogListSchema.parse((await t.api.get("/api/audit-logs?type=trade&limit=1000")).body);
    return logs
      .filter((l) => l.message.startsWith("Master "))
      .sort((x, y) => (BigInt(x.id) < BigInt(y.id) ? -1 : 1))
      .map((l) => ({ kind: /^Master (\w+)/.exec(l.message)![1]!, ticket: /ticket (\d+)/.exec(l.message)![1]! }));
  };

  it("answers 30 concurrent opens of different tickets with 201 each and their own orders", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => master.signal(masterEvent("OPEN", { ticket: 1000 + i }))));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    expect(results.every((r) => r.body.queued === 3 && r.body.rejected === 0)).toBe(true);
    expect(new Set(results.map((r) => r.body.signalId)).size).toBe(30);
    const applied = (await appliedOrder()).filter((a) => Number(a.ticket) >= 1000 && Number(a.ticket) < 1030);
    expect(applied.map((a) => a.ticket).sort()).toEqual(Array.from({ length: 30 }, (_, i) => String(1000 + i)).sort());
  });

  it("keeps each ticket's event order while chains of many tickets run side by side", async () => {
    const tickets = Array.from({ length: 12 }, (_, i) => 2000 + i);
    const chains = tickets.map(async (ticket) => {
      const statuses: number[] = [];
      for (const ev of [
        masterEvent("OPEN", { ticket }),
        masterEvent("MODIFY", { ticket, sl: 1.07, tp: 1.1 }),
        masterEvent("CLOSE", { ticket, volume: 0.5, price: 1.085 }),
        masterEvent("CLOSE", { ticket, volume: 0.5, price: 1.086 }),
      ]) {
        statuses.push((await master.signal(ev)).status);
      }
      return statuses;
    });
    for (const statuses of await Promise.all(chains)) expect(statuses).toEqual([201, 201, 201, 201]);
    const applied = await appliedOrder();
    for (const ticket of tickets) {
      expect(applied.filter((a) => a.ticket === String(ticket)).map((a) => a.kind)).toEqual(["OPEN", "modify", "partial", "close"]);
    }
  });

  it("answers a retry of each batched event with its first answer and stores nothing twice", async () => {
    const events = Array.from({ length: 10 }, (_, i) => masterEvent("OPEN", { ticket: 3000 + i }));
    const first = await Promise.all(events.map((ev) => master.signal(ev)));
    expect(first.map((r) => r.status)).toEqual(events.map(() => 201));
    const retries = await Promise.all(events.map((ev) => master.signal(ev)));
    expect(retries.map((r) => r.status)).toEqual(events.map(() => 201));
    expect(retries.map((r) => r.body)).toEqual(first.map((r) => r.body));
    const applied = (await appliedOrder()).filter((a) => Number(a.ticket) >= 3000 && Number(a.ticket) < 3010);
    expect(applied).toHaveLength(10);
  });

  it("gives a failing event its own 4xx among concurrent ones, commits the others, and keeps its key usable", async () => {
    expect((await master.signal(masterEvent("OPEN", { ticket: 4000 }))).status).toBe(201);
    const early = masterEvent("MODIFY", { ticket: 4099, sl: 1.07 });
    const burst = [
      ...Array.from({ length: 8 }, (_, i) => masterEvent("OPEN", { ticket: 4001 + i })),
      masterEvent("OPEN", { ticket: 4000 }), // already open: 409
      early, // unknown ticket: 404
      masterEvent("OPEN", { ticket: 4020, volume: 0 }), // 400
    ];
    const results = await Promise.all(burst.map((ev) => master.signal(ev)));
    expect(results.map((r) => r.status)).toEqual([...Array.from({ length: 8 }, () => 201), 409, 404, 400]);
    const applied = (await appliedOrder()).filter((a) => Number(a.ticket) >= 4000 && Number(a.ticket) < 4100);
    expect(applied.map((a) => a.ticket).sort()).toEqual(["4000", ...Array.from({ length: 8 }, (_, i) => String(4001 + i))].sort());
    // The 404's idempotency marker was dropped: the same key succeeds once the ticket exists.
    expect((await master.signal(masterEvent("OPEN", { ticket: 4099 }))).status).toBe(201);
    expect((await master.signal(early)).status).toBe(201);
  });
});

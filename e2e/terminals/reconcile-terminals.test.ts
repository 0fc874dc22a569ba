/**
 * Reconciliation and MT5 netting with the real Expert Advisors (issue 14, docs/bridge-protocol.md
 * §10): the unmodified EAs compiled by the harness against a real server, on each database.
 *
 * 1. One NETTING MT5 master, one NETTING MT5 slave and one hedging MT4 slave: the master opens
 *    0.10, adds 0.10, closes 0.05 and reverses; after each step the netting slave's one position
 *    equals the master's, and the hedging slave holds one position per leg (closed first in,
 *    first out) adding up to it.
 * 2. A restarted master and slave converge (hedging MT5 master, MT4 slave):
 *    - the master EA loses its state and is off while its terminal opens one trade and closes
 *      another; attached again it takes the book as known (no events), so only its snapshots tell
 *      the server: the open is copied ("from snapshot"), the close after two consecutive snapshots;
 *    - the slave EA is off while a copy is closed by hand; restarted, its snapshot shows the
 *      missing copy: GET /api/accounts/:id/sync lists it, a dry run shows the plan, Apply queues
 *      exactly that plan and the copy comes back; a later snapshot says in sync;
 *    - the same with autoSync `full`: the server reopens the copy by itself; after a settings
 *      change (fixed 0.05 lots) it closes the copy's excess volume.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEa } from "../../terminals/harness/build.ts";
import { createKey } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import type { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { EaProcess, fxSymbol, type SimBook, type SimBroker } from "./ea-process.ts";

const MAGIC = "20241121";
const EA = {
  master5: "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5",
  slave5: "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5",
  slave4: "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4",
} as const;
const binaries: Record<keyof typeof EA, string> = { master5: "", slave5: "", slave4: "" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Positions as compared: symbol, side, volume (2 dp). The slave's only with the copy magic. */
const rows = (book: SimBook, copiesOnly: boolean): string[] =>
  book.positions
    .filter((p) => !copiesOnly || String(p.magic) === MAGIC)
    .map((p) => `${p.symbol} ${p.side} ${Number(p.volume).toFixed(2)}`)
    .sort();

/** Net lots per symbol (BUY +, SELL −), 2 dp: what a netting account holds, whatever its positions. */
const net = (book: SimBook, copiesOnly: boolean): string[] => {
  const sums = new Map<string, number>();
  for (const p of book.positions.filter((x) => !copiesOnly || String(x.magic) === MAGIC)) {
    sums.set(p.symbol, (sums.get(p.symbol) ?? 0) + (p.side === "BUY" ? 1 : -1) * Math.round(Number(p.volume) * 100));
  }
  return [...sums.entries()]
    .filter(([, v]) => v !== 0)
    .map(([sym, v]) => `${sym} ${(v / 100).toFixed(2)}`)
    .sort();
};

/**
 * Waits until every slave's copies equal the master's book as `view` shows them (default: position
 * by position; `net` for a netting master) and nothing is left unreported.
 */
async function converge(master: EaProcess, slaves: EaProcess[], api: Api, view = rows, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const unreported = ((await api.get("/api/executions?status=pending&limit=100")).body as unknown[]).length;
    const want = JSON.stringify(view(await master.book(), false));
    const have = await Promise.all(slaves.map(async (s) => JSON.stringify(view(await s.book(), true))));
    if (unreported === 0 && have.every((h) => h === want)) return;
    if (Date.now() > until) {
      const last = `unreported ${unreported}; want ${want}; have ${have.join(" | ")}`;
      throw new Error(`books did not converge: ${last}\n${master.tail(25)}\n${slaves.map((s) => s.tail(25)).join("\n")}`);
    }
    await sleep(300);
  }
}

interface SyncStatusBody {
  state: string;
  snapshotTs: string | null;
  differences: { kind: string; masterTicket: string | null; symbol: string }[];
  plan: { planId: string; orders: { action: string; masterTicket: string | null; reason: string }[]; skipped: unknown[] };
}

const broker = (login: number, marginMode: "hedging" | "netting", serverName: string): SimBroker => ({
  login,
  server: serverName,
  company: "Sim",
  currency: "USD",
  balance: "10000",
  leverage: 100,
  marginMode,
  symbols: [fxSymbol("EURUSD", 1.0845), fxSymbol("GBPUSD", 1.265)],
});

describe.each(databaseKinds())("terminals: reconciliation and netting on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let root: string;

  beforeAll(async () => {
    for (const key of Object.keys(EA) as (keyof typeof EA)[]) if (!binaries[key]) binaries[key] = (await buildEa(EA[key])).binary;
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    root = mkdtempSync(join(tmpdir(), "cb-reconcile-"));
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A master and one slave account with keys and EA processes (not started). */
  async function setUp(t: SignedIn, name: string, opts: { masterLogin: number; slaveLogin: number; slavePlatform: "MT4" | "MT5"; marginMode: "hedging" | "netting" }) {
    const m = await t.api.post("/api/accounts", { accountNumber: String(opts.masterLogin), alias: "Main", broker: "Sim", platform: "MT5", role: "MASTER" });
    expect(m.status).toBe(201);
    const s = await t.api.post("/api/accounts", { accountNumber: String(opts.slaveLogin), alias: "Copy", broker: "Sim", platform: opts.slavePlatform, role: "SLAVE" });
    expect(s.status).toBe(201);
    const masterKey = await createKey(t.api, "MASTER", m.body.id);
    const slaveKey = await createKey(t.api, "SLAVE", s.body.id);
    const common = (key: { apiKey: string; secret: string }) => ({ InpServerUrl: server.url, InpApiKey: key.apiKey, InpApiSecret: key.secret, InpHeartbeatSec: "2", InpVerbosity: "1" });
    const dir = join(root, `${kind}-${name}`);
    const master = new EaProcess(`master-${name}`, {
      binary: binaries.master5,
      dir: join(dir, "master"),
      broker: broker(opts.masterLogin, opts.marginMode, "Sim-Master"),
      inputs: { ...common(masterKey), InpTimerMs: "250" },
      allowUrl: server.url,
    });
    const slave = new EaProcess(`slave-${name}`, {
      binary: opts.slavePlatform === "MT5" ? binaries.slave5 : binaries.slave4,
      dir: join(dir, "slave"),
      broker: broker(opts.slaveLogin, opts.slavePlatform === "MT5" ? opts.marginMode : "hedging", "Sim-Slave"),
      inputs: { ...common(slaveKey), InpPollWaitMs: "2000", InpMagic: MAGIC },
      allowUrl: server.url,
    });
    return { masterId: m.body.id as string, slaveId: s.body.id as string, master, slave, masterDir: join(dir, "master"), common };
  }

  /** One more slave account, key and EA process (not started). */
  async function addSlave(t: SignedIn, name: string, login: number, platform: "MT4" | "MT5", marginMode: "hedging" | "netting", common: (key: { apiKey: string; secret: string }) => Record<string, string>) {
    const s = await t.api.post("/api/accounts", { accountNumber: String(login), alias: `Copy ${login}`, broker: "Sim", platform, role: "SLAVE" });
    expect(s.status).toBe(201);
    const key = await createKey(t.api, "SLAVE", s.body.id);
    return new EaProcess(`slave-${name}-${login}`, {
      binary: platform === "MT5" ? binaries.slave5 : binaries.slave4,
      dir: join(root, `${kind}-${name}`, `slave-${login}`),
      broker: broker(login, marginMode, "Sim-Slave"),
      inputs: { ...common(key), InpPollWaitMs: "2000", InpMagic: MAGIC },
      allowUrl: server.url,
    });
  }

  it("copies a netting master's open, addition, partial close and reversal to a netting slave and a hedging slave", { timeout: 300_000 }, async () => {
    const t = await signUp(server.url);
    const { masterId, master, slave, common } = await setUp(t, "netting", { masterLogin: 50009001, slaveLogin: 7901, slavePlatform: "MT5", marginMode: "netting" });
    // Netting → hedging: each leg is a position of its own (comment cb:<ticket>/<leg>).
    const hedging = await addSlave(t, "netting", 7911, "MT4", "hedging", common);
    const slaves = [slave, hedging];
    const legs = async () => (await hedging.book()).positions.map((p) => `${p.side} ${p.volume}`).sort();
    try {
      for (const p of [master, ...slaves]) p.start();
      await expect.poll(async () => (await t.api.get(`/api/accounts/${masterId}`)).body?.marginMode, { timeout: 30_000, interval: 300 }).toBe("netting");
      const opened = await master.ok<{ ticket: string }>("open EURUSD BUY 0.10");
      await converge(master, slaves, t.api, net);
      for (const p of [master, ...slaves]) await p.ok("price EURUSD 1.08500 1.08510");
      await master.ok("open EURUSD BUY 0.10");
      await converge(master, slaves, t.api, net);
      expect(rows(await slave.book(), true)).toEqual(["EURUSD BUY 0.20"]);
      expect(await legs()).toEqual(["BUY 0.10", "BUY 0.10"]);
      await master.ok(`close ${opened.ticket} 0.05`);
      await converge(master, slaves, t.api, net);
      expect(rows(await slave.book(), true)).toEqual(["EURUSD BUY 0.15"]);
      // First in, first out: the opening leg gives its lots first.
      expect(await legs()).toEqual(["BUY 0.05", "BUY 0.10"]);
      await master.ok("open EURUSD SELL 0.30");
      await converge(master, slaves, t.api, net);
      expect(rows(await slave.book(), true)).toEqual(["EURUSD SELL 0.15"]);
      expect(await legs()).toEqual(["SELL 0.15"]);
      expect((await master.book()).positions).toMatchObject([{ ticket: String(opened.ticket), side: "SELL" }]);
      await master.ok(`close ${opened.ticket}`);
      await converge(master, slaves, t.api, net);
      expect(rows(await slave.book(), true)).toEqual([]);
      expect(await legs()).toEqual([]);
      const executions = (await t.api.get("/api/executions?limit=100")).body as { status: string; errorMessage: string | null }[];
      expect(executions.filter((e) => e.status === "error" || e.status === "rejected")).toEqual([]);
    } finally {
      for (const p of [master, ...slaves]) await p.stop();
    }
  });

  it("brings a restarted master and a restarted slave back in sync from their snapshots", { timeout: 420_000 }, async () => {
    const t = await signUp(server.url);
    const { masterId, slaveId, master, slave, masterDir } = await setUp(t, "restart", { masterLogin: 50009002, slaveLogin: 7902, slavePlatform: "MT4", marginMode: "hedging" });
    const settings = async (autoSync: "off" | "full", sizing: Record<string, unknown> = { mode: "multiplier" }) => {
      const r = await t.api.put(`/api/copy-settings/${slaveId}`, { sizing, signalLifetimeSeconds: 600, autoSync });
      expect(r.status).toBe(200);
    };
    const syncOf = async (id: string) => (await t.api.get(`/api/accounts/${id}/sync`)).body as SyncStatusBody;
    /** Stops the slave EA, runs `manual` on its terminal without the EA, restarts the EA (its snapshot follows). */
    const slaveOffline = async (manual: () => Promise<void>) => {
      await slave.stop();
      slave.start({ detached: true });
      await manual();
      await slave.stop();
      slave.start();
    };
    const copyOf = async (symbol: string) => (await slave.book()).positions.find((p) => p.symbol === symbol && String(p.magic) === MAGIC);
    try {
      await settings("off");
      // A missing copy is reopened only within the slave's deviation of the master's open price
      // (the master's SELL shows the ask, a spread away from its open at the bid).
      const limit = { accountId: slaveId, scope: "account", targetId: slaveId, maxDrawdownPct: 50, maxLotSize: 100, maxPositions: 100, maxSpreadPts: 1000, maxDeviationPts: 50, enabled: true };
      expect((await t.api.post("/api/risk-limits", limit)).status).toBeLessThan(300);
      master.start();
      slave.start();
      await expect.poll(async () => (await t.api.get(`/api/accounts/${masterId}`)).body?.login, { timeout: 30_000, interval: 300 }).toBe("50009002");
      const eur = await master.ok<{ ticket: string }>("open EURUSD BUY 0.10");
      await converge(master, [slave], t.api);

      // The master EA is reinstalled (state lost) while its terminal opened GBPUSD and closed EURUSD.
      await master.stop();
      rmSync(join(masterDir, "Files", "CopyBridge-master-50009002.dat"), { force: true });
      master.start({ detached: true });
      const gbp = await master.ok<{ ticket: string }>("open GBPUSD SELL 0.20");
      await master.ok(`close ${eur.ticket}`);
      await master.stop();
      master.start();
      // Its first snapshot brings the missed open; a second one (next start) confirms the close.
      await expect.poll(async () => Boolean(await copyOf("GBPUSD")), { timeout: 60_000, interval: 500 }).toBe(true);
      await sleep(1_500);
      await master.stop();
      master.start();
      await converge(master, [slave], t.api, rows, 90_000);
      const signals = (await t.api.get("/api/signals?limit=100")).body as { masterTicket: string; origin?: string; status: string }[];
      expect(signals.find((s) => s.masterTicket === String(gbp.ticket))?.origin).toBe("snapshot");

      // The slave EA is off while the GBPUSD copy is closed by hand: dry run, then apply.
      const copy = await copyOf("GBPUSD");
      expect(copy).toBeDefined();
      await slaveOffline(async () => void (await slave.ok(`close ${copy!.ticket}`)));
      await expect.poll(async () => (await syncOf(slaveId)).differences.map((d) => d.kind), { timeout: 30_000, interval: 500 }).toContain("missing_copy");
      const status = await syncOf(slaveId);
      expect(status.state).toBe("differences");
      expect(status.differences).toMatchObject([{ kind: "missing_copy", masterTicket: String(gbp.ticket) }]);
      const dry = await t.api.post(`/api/accounts/${slaveId}/sync`, { dryRun: true });
      expect(dry.status).toBe(200);
      expect(dry.body.plan.planId).toBe(status.plan.planId);
      expect(dry.body.plan.orders).toMatchObject([{ action: "OPEN", masterTicket: String(gbp.ticket) }]);
      expect(dry.body.queued).toBe(0);
      expect(await copyOf("GBPUSD")).toBeUndefined();
      const apply = await t.api.post(`/api/accounts/${slaveId}/sync`, { dryRun: false, planId: dry.body.plan.planId });
      expect(apply.status).toBe(200);
      expect(apply.body.queued).toBe(1);
      await converge(master, [slave], t.api);
      // A fresh snapshot (restart) of the repaired book: in sync.
      await slaveOffline(async () => {});
      await expect.poll(async () => (await syncOf(slaveId)).state, { timeout: 30_000, interval: 500 }).toBe("in_sync");

      // The same with autoSync full: the server repairs by itself.
      await settings("full");
      const again = await copyOf("GBPUSD");
      expect(again).toBeDefined();
      await slaveOffline(async () => void (await slave.ok(`close ${again!.ticket}`)));
      await converge(master, [slave], t.api);
      await slaveOffline(async () => {});
      await expect.poll(async () => (await syncOf(slaveId)).state, { timeout: 30_000, interval: 500 }).toBe("in_sync");

      // A settings change (fixed 0.05 lots): the next snapshot shows a volume mismatch, autoSync
      // full closes the excess.
      await settings("full", { mode: "fixed", fixedVolume: "0.05" });
      await slaveOffline(async () => {});
      await expect.poll(async () => (await copyOf("GBPUSD"))?.volume, { timeout: 60_000, interval: 500 }).toBe("0.05");
      await expect.poll(async () => ((await t.api.get("/api/executions?status=pending&limit=100")).body as unknown[]).length, { timeout: 30_000, interval: 500 }).toBe(0);
      await slaveOffline(async () => {});
      await expect.poll(async () => (await syncOf(slaveId)).state, { timeout: 30_000, interval: 500 }).toBe("in_sync");
      // The master's comparison is as of its latest snapshot: the one after the repairs is in sync.
      const before = await syncOf(masterId);
      await sleep(1_100);
      await master.stop();
      master.start();
      await expect.poll(async () => (await syncOf(masterId)).snapshotTs !== before.snapshotTs, { timeout: 30_000, interval: 500 }).toBe(true);
      expect(await syncOf(masterId)).toMatchObject({ state: "in_sync", differences: [] });
    } finally {
      await master.stop();
      await slave.stop();
    }
  });
});

/**
 * The Expert Advisors themselves, end to end (issue 10, "Proving them without MetaTrader"): the
 * unmodified .mq4/.mq5 sources compiled with g++ by the harness, one master EA process (MT5, then
 * MT4) and three slave EA processes (MT4, MT5, and MT4 with suffixed symbols and a lot multiplier)
 * against a real server on each database. The master's book is driven through opens, SL/TP
 * changes, partial and full closes and pending orders; every slave book must end equal to the
 * master's (mapped symbol, multiplied volume), every order must end reported, and killing a slave
 * EA and the master EA mid-stream and starting them again must lose and duplicate nothing, and
 * what the master terminal did while its EA was not attached is reported when it is attached again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEa } from "../../terminals/harness/build.ts";
import { createKey } from "../support/bridge.ts";
import type { Api } from "../support/http.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { EaProcess, fxSymbol, type SimBook, type SimBroker } from "./ea-process.ts";

const SLAVE_MAGIC = "20241121";
const EA = {
  master5: "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5",
  slave5: "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5",
  master4: "terminals/MQL4/Experts/CopyBridge/CopyBridgeMaster.mq4",
  slave4: "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4",
} as const;

const binaries: Record<keyof typeof EA, string> = { master5: "", slave5: "", master4: "", slave4: "" };

/** A position as compared across books: mapped symbol, side, volume (2 dp), SL/TP (5 dp). */
type Row = string;
const n2 = (v: string | number) => Number(v).toFixed(2);
const n5 = (v: string | number) => Number(v).toFixed(5);

function masterRows(book: SimBook, map: (symbol: string) => string, multiplier: number): { positions: Row[]; orders: Row[] } {
  // The copy engine rounds a multiplied volume down to 0.01 lot (docs/bridge-protocol.md §5).
  const vol = (v: string) => n2(Math.floor(Number(v) * multiplier * 100 + 1e-9) / 100);
  return {
    positions: book.positions.map((p) => `${map(p.symbol)} ${p.side} ${vol(p.volume)} sl=${n5(p.sl)} tp=${n5(p.tp)}`).sort(),
    orders: book.orders.map((o) => `${map(o.symbol)} ${o.type} ${vol(o.volume)} @${n5(o.price)} sl=${n5(o.sl)} tp=${n5(o.tp)}`).sort(),
  };
}

function slaveRows(book: SimBook): { positions: Row[]; orders: Row[] } {
  const mine = <T extends { magic: string | number }>(xs: T[]) => xs.filter((x) => String(x.magic) === SLAVE_MAGIC);
  return {
    positions: mine(book.positions).map((p) => `${p.symbol} ${p.side} ${n2(p.volume)} sl=${n5(p.sl)} tp=${n5(p.tp)}`).sort(),
    orders: mine(book.orders).map((o) => `${o.symbol} ${o.type} ${n2(o.volume)} @${n5(o.price)} sl=${n5(o.sl)} tp=${n5(o.tp)}`).sort(),
  };
}

interface SlaveSetup {
  ea: EaProcess;
  accountId: string;
  map: (symbol: string) => string;
  multiplier: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until every slave's book equals the master's, mapped, and the server holds no unreported
 * order (a slave's book can show a fill before its report reaches the server); fails with both
 * books after `ms`.
 */
async function converge(master: EaProcess, slaves: SlaveSetup[], api: Api, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  let last = "";
  for (;;) {
    const unreported = ((await api.get("/api/executions?status=pending&limit=100")).body as unknown[]).length;
    if (unreported > 0) {
      if (Date.now() > until) throw new Error(`${unreported} order(s) still unreported\n${master.tail(20)}\n${slaves.map((s) => s.ea.tail(20)).join("\n")}`);
      await sleep(100);
      continue;
    }
    const mb = await master.book();
    let same = true;
    const diffs: string[] = [];
    for (const s of slaves) {
      const want = masterRows(mb, s.map, s.multiplier);
      const have = slaveRows(await s.ea.book());
      const eq = JSON.stringify(want) === JSON.stringify(have);
      if (!eq) {
        same = false;
        diffs.push(`${s.ea.name}: want ${JSON.stringify(want)}\n   have ${JSON.stringify(have)}`);
      }
    }
    if (same) return;
    last = diffs.join("\n");
    if (Date.now() > until) {
      throw new Error(`books did not converge:\n${last}\n${master.tail(20)}\n${slaves.map((s) => s.ea.tail(20)).join("\n")}`);
    }
    await sleep(300);
  }
}

describe("terminals: the four EAs compile", () => {
  it("translates and compiles every EA with g++", { timeout: 600_000 }, async () => {
    for (const key of Object.keys(EA) as (keyof typeof EA)[]) {
      const { binary } = await buildEa(EA[key]);
      binaries[key] = binary;
      expect(binary).toBeTruthy();
    }
  });
});

describe.each(databaseKinds())("terminals end to end on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let root: string;

  beforeAll(async () => {
    for (const key of Object.keys(EA) as (keyof typeof EA)[]) {
      if (!binaries[key]) binaries[key] = (await buildEa(EA[key])).binary;
    }
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    root = mkdtempSync(join(tmpdir(), "cb-terminals-"));
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  for (const masterPlatform of ["MT5", "MT4"] as const) {
    it(`copies a ${masterPlatform} master to MT4, MT5 and suffixed MT4 slaves, surviving EA crashes`, { timeout: 420_000 }, async () => {
      const t: SignedIn = await signUp(server.url);
      const masterLogin = masterPlatform === "MT5" ? 50001234 : 60001234;
      const m = await t.api.post("/api/accounts", { accountNumber: String(masterLogin), alias: "Main", broker: "Sim", platform: masterPlatform, role: "MASTER" });
      expect(m.status).toBe(201);
      const slaveDefs = [
        { number: 7001, platform: "MT4" as const, suffix: "", multiplier: 1, binary: binaries.slave4 },
        { number: 7002, platform: "MT5" as const, suffix: "", multiplier: 1, binary: binaries.slave5 },
        { number: 7003, platform: "MT4" as const, suffix: ".a", multiplier: 2, binary: binaries.slave4 },
      ];
      const masterKey = await createKey(t.api, "MASTER", m.body.id);
      const dir = join(root, `${kind}-${masterPlatform}`);
      const common = (key: { apiKey: string; secret: string }) => ({
        InpServerUrl: server.url,
        InpApiKey: key.apiKey,
        InpApiSecret: key.secret,
        InpHeartbeatSec: "2",
        InpVerbosity: "1",
      });
      const masterBroker: SimBroker = {
        login: masterLogin,
        server: "Sim-Master",
        company: "Sim",
        currency: "USD",
        balance: "10000",
        leverage: 100,
        marginMode: "hedging",
        bigTickets: masterPlatform === "MT5",
        symbols: [fxSymbol("EURUSD", 1.0845), fxSymbol("GBPUSD", 1.265), fxSymbol("XAUUSD", 2650.1, { digits: 2, point: 0.01, tickSize: 0.01, ask: 2650.3, contractSize: 100 })],
      };
      const master = new EaProcess(`master-${masterPlatform}`, {
        binary: masterPlatform === "MT5" ? binaries.master5 : binaries.master4,
        dir: join(dir, "master"),
        broker: masterBroker,
        inputs: { ...common(masterKey), InpTimerMs: "250" },
        allowUrl: server.url,
      });

      const slaves: SlaveSetup[] = [];
      for (const d of slaveDefs) {
        const s = await t.api.post("/api/accounts", { accountNumber: String(d.number), alias: `S${d.number}`, broker: "Sim", platform: d.platform, role: "SLAVE" });
        expect(s.status).toBe(201);
        const accountId = s.body.id as string;
        if (d.suffix) {
          for (const sym of ["EURUSD", "GBPUSD"]) {
            const r = await t.api.post("/api/symbol-maps", { masterSymbol: sym, slaveSymbol: sym + d.suffix, slaveAccountId: accountId, lotMultiplier: d.multiplier });
            expect(r.status).toBe(201);
          }
        }
        const key = await createKey(t.api, "SLAVE", accountId);
        const ea = new EaProcess(`slave-${d.number}-${d.platform}`, {
          binary: d.binary,
          dir: join(dir, `slave-${d.number}`),
          broker: {
            login: d.number,
            server: "Sim-Slave",
            company: "Sim",
            currency: "USD",
            balance: "5000",
            leverage: 100,
            marginMode: "hedging",
            bigTickets: d.platform === "MT5",
            symbols: [fxSymbol(`EURUSD${d.suffix}`, 1.0845), fxSymbol(`GBPUSD${d.suffix}`, 1.265)],
          },
          inputs: { ...common(key), InpPollWaitMs: "2000", InpMagic: SLAVE_MAGIC },
          allowUrl: server.url,
        });
        slaves.push({ ea, accountId, map: (sym) => sym + d.suffix, multiplier: d.multiplier });
      }

      const all = [master, ...slaves.map((s) => s.ea)];
      try {
        for (const p of all) p.start();
        // The master EA's heartbeat fills the master card (spec §/master).
        await expect.poll(async () => (await t.api.get(`/api/accounts/${m.body.id}`)).body?.login, { timeout: 30_000, interval: 300 }).toBe(String(masterLogin));

        // Open, SL/TP change, partial close.
        const open1 = await master.ok<{ ticket: string }>("open EURUSD BUY 0.40 1.08000 1.09500");
        await converge(master, slaves, t.api);
        await master.ok(`modify ${open1.ticket} 1.08100 1.09600`);
        await converge(master, slaves, t.api);
        const part = await master.ok<{ remainingTicket?: string }>(`close ${open1.ticket} 0.10`);
        await converge(master, slaves, t.api);
        const eurTicket = part.remainingTicket ?? open1.ticket;

        // Pending order: place, modify, then a second one cancelled.
        const p1 = await master.ok<{ ticket: string }>("pending GBPUSD SELL_LIMIT 0.20 1.27000 1.28000 1.25000");
        await converge(master, slaves, t.api);
        await master.ok(`pmodify ${p1.ticket} 1.27100 1.28100 1.25100`);
        await converge(master, slaves, t.api);
        const p2 = await master.ok<{ ticket: string }>("pending EURUSD BUY_STOP 0.10 1.09000 0 0");
        await converge(master, slaves, t.api);
        await master.ok(`cancel ${p2.ticket}`);
        await converge(master, slaves, t.api);

        // A slave EA killed mid-stream, the master acting meanwhile, then the slave restarted.
        const crashed = slaves[1]!.ea;
        const open2 = await master.ok<{ ticket: string }>("open GBPUSD SELL 0.30 0 0");
        await crashed.crash();
        await master.ok(`modify ${open2.ticket} 1.28000 1.25000`);
        crashed.start();
        await converge(master, slaves, t.api);

        // The master EA killed right after a close, then restarted: the close is still copied, once.
        await master.ok(`close ${eurTicket}`);
        await master.crash();
        master.start();
        await converge(master, slaves, t.api);

        // The master terminal trades while its EA is not attached: on reattach the EA reports it all.
        await master.stop();
        master.start({ detached: true });
        await master.ok("open EURUSD SELL 0.20 0 0");
        await master.ok(`modify ${open2.ticket} 1.28500 1.24500`);
        await master.stop();
        master.start();
        await converge(master, slaves, t.api);

        // The pending order triggers on every broker (quote moves up to the limit); then all closed.
        await master.ok("price GBPUSD 1.27150 1.27160");
        for (const s of slaves) await s.ea.ok(`price ${s.map("GBPUSD")} 1.27150 1.27160`);
        await converge(master, slaves, t.api);

        // A pending order that triggers and is stopped out while the EA is busy (no EA event in
        // between): the master EA must report a close of the trade, not a cancelled order.
        const p3 = await master.ok<{ ticket: string }>("pending EURUSD BUY_LIMIT 0.10 1.08000 1.07500 0");
        await converge(master, slaves, t.api);
        await master.ok("together price EURUSD 1.07990 1.08000; price EURUSD 1.07400 1.07410");
        await converge(master, slaves, t.api);
        const p3Signal = ((await t.api.get("/api/signals?limit=100")).body as { id: string; masterTicket: string; status: string }[]).find((x) => x.masterTicket === p3.ticket);
        expect(p3Signal?.status).not.toBe("cancelled");
        const p3Closes = ((await t.api.get(`/api/executions?signalId=${p3Signal?.id}`)).body as { action: string; status: string }[]).filter((e) => e.action === "CLOSE");
        expect(p3Closes.map((e) => e.status)).toEqual(slaves.map(() => "closed"));
        await expect
          .poll(async () => ((await t.api.get("/api/signals?limit=100")).body as { id: string; status: string }[]).find((x) => x.id === p3Signal?.id)?.status, { timeout: 30_000, interval: 300 })
          .toBe("closed");

        for (const pos of (await master.book()).positions) await master.ok(`close ${pos.ticket}`);
        await converge(master, slaves, t.api);
        expect((await master.book()).positions).toEqual([]);

        // Every order the engine queued was reported; nothing pending, nothing delivered twice.
        await expect
          .poll(async () => ((await t.api.get("/api/executions?limit=500")).body as { status: string }[]).filter((e) => e.status === "pending").length, { timeout: 30_000, interval: 500 })
          .toBe(0);
        const executions = (await t.api.get("/api/executions?limit=500")).body as { action: string; status: string; slaveAccountId: string; slaveTicket: string | null }[];
        const opens = executions.filter((e) => e.action === "OPEN");
        expect(opens).toHaveLength(3 * slaves.length);
        expect(opens.every((e) => e.status === "filled")).toBe(true);
        for (const s of slaves) {
          const tickets = opens.filter((e) => e.slaveAccountId === s.accountId).map((e) => e.slaveTicket);
          expect(new Set(tickets).size).toBe(tickets.length);
        }
        expect(executions.filter((e) => e.status === "error" || e.status === "rejected")).toEqual([]);

        // What the EAs told the server about their terminals: account figures with the margin mode,
        // the symbol specifications each slave traded, and the latest book snapshots.
        const masterAccount = (await t.api.get(`/api/accounts/${m.body.id}`)).body as { marginMode: string | null; leverage: number | null; currency: string };
        expect(masterAccount).toMatchObject({ marginMode: "hedging", leverage: 100, currency: "USD" });
        const suffixed = slaves[2]!;
        const specs = (await t.api.get(`/api/accounts/${suffixed.accountId}/symbol-specs`)).body as { symbol: string; volumeStep: string; digits: number }[];
        expect(specs.map((x) => x.symbol).sort()).toEqual(["EURUSD.a", "GBPUSD.a"]);
        expect(specs[0]).toMatchObject({ digits: 5 });
        expect(Number(specs[0]!.volumeStep)).toBe(0.01);
        await expect.poll(async () => (await t.api.get(`/api/accounts/${m.body.id}/snapshot`)).body?.accountId, { timeout: 30_000 }).toBe(m.body.id);
        await expect.poll(async () => (await t.api.get(`/api/accounts/${suffixed.accountId}/snapshot`)).body?.accountId, { timeout: 30_000 }).toBe(suffixed.accountId);

        // A symbol no slave broker has: every slave rejects the copy, naming the symbol, and goes on.
        const gold = await master.ok<{ ticket: string }>("open XAUUSD BUY 0.10 0 0");
        await expect
          .poll(async () => ((await t.api.get("/api/executions?limit=500")).body as { symbol: string; status: string }[]).filter((e) => e.symbol?.startsWith("XAUUSD") && e.status === "rejected").length, { timeout: 30_000, interval: 500 })
          .toBe(slaves.length);
        const goldRejections = ((await t.api.get("/api/executions?limit=500")).body as { symbol: string; errorMessage: string | null }[]).filter((e) => e.symbol?.startsWith("XAUUSD"));
        for (const e of goldRejections) expect(e.errorMessage).toContain("XAUUSD");
        await master.ok(`close ${gold.ticket}`);
        await master.ok("open EURUSD SELL 0.05 0 0");
        await converge(master, slaves, t.api);
      } finally {
        for (const p of all) await p.stop();
      }
    });
  }
});

describe("terminals: bad input and setup errors", () => {
  let root: string;
  beforeAll(async () => {
    for (const key of ["slave5", "slave4", "master5"] as const) if (!binaries[key]) binaries[key] = (await buildEa(EA[key])).binary;
    root = mkdtempSync(join(tmpdir(), "cb-terminals-input-"));
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const broker: SimBroker = { login: 7100, server: "Sim", company: "Sim", currency: "USD", balance: "1000", leverage: 100, marginMode: "hedging", symbols: [fxSymbol("EURUSD", 1.08)] };
  const good = { InpServerUrl: "http://127.0.0.1:9", InpApiKey: `cbk_${"a".repeat(32)}`, InpApiSecret: "b".repeat(64) };

  /** Runs the EA until it exits by itself; answers its exit code and output. */
  async function runToExit(binary: string, name: string, inputs: Record<string, string>): Promise<{ code: number | null; text: string }> {
    const ea = new EaProcess(name, { binary, dir: join(root, name), broker, inputs, allowUrl: "http://127.0.0.1:9" });
    ea.start();
    const timer = setTimeout(() => void ea.crash(), 20_000);
    const code = await ea.exitCode();
    clearTimeout(timer);
    return { code, text: ea.output.join("\n") };
  }

  it.each([
    ["InpServerUrl", { ...good, InpServerUrl: "" }],
    ["InpServerUrl", { ...good, InpServerUrl: "ftp://example.com" }],
    ["InpApiKey", { ...good, InpApiKey: "" }],
    ["InpApiSecret", { ...good, InpApiSecret: "not-hex" }],
  ])("refuses to start when %s is empty or malformed", async (input, inputs) => {
    for (const binary of [binaries.slave5, binaries.slave4, binaries.master5]) {
      const { code, text } = await runToExit(binary, `bad-${input}-${Math.random().toString(36).slice(2, 8)}`, inputs);
      expect(code).not.toBe(0);
      expect(text).toContain(input);
    }
  });

  it("names the URL to allow when WebRequest is refused (4014 / 4060)", async () => {
    for (const binary of [binaries.slave5, binaries.slave4]) {
      const name = `not-allowed-${Math.random().toString(36).slice(2, 8)}`;
      const ea = new EaProcess(name, { binary, dir: join(root, name), broker, inputs: { ...good, InpServerUrl: "http://127.0.0.1:9/" }, allowUrl: "http://127.0.0.2:1" });
      ea.start();
      try {
        await expect.poll(() => ea.output.join("\n"), { timeout: 20_000, interval: 200 }).toMatch(/Add http:\/\/127\.0\.0\.1:9 under Tools -> Options -> Expert Advisors/);
        const status = await ea.command<{ comment: string }>("status");
        expect(status.comment).toMatch(/ERROR/);
      } finally {
        await ea.stop();
      }
    }
  });
});

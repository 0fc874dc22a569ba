/**
 * The shared includes below the cores, compiled by the harness translation (MQL5 and MQL4) into
 * the fixture terminals/harness/fixtures/core-units.mq5/.mq4 and checked from the outside:
 * Store.mqh (escaping, atomic save, reload, truncated files), SlaveCore's trading hours and symbol
 * lists, the poll answer and config parsers, every request body of Protocol.mqh validated by the
 * server's own zod schemas (contract/), and Http.mqh's input checks, allowed-URL hint and signing.
 *
 * The fixture includes Include/CopyBridge files that include each other; it is built here into a
 * private folder (translate.ts + g++, as build.ts does) because build.ts resolves nested includes
 * against the EA's own folder.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { masterHeartbeatSchema, signalEventSchema, slaveHeartbeatSchema } from "../contract/bridge.ts";
import { executionReportSchema, slavePollSchema } from "../contract/bridge-orders.ts";
import { slaveSymbolsSchema, snapshotSchema } from "../contract/terminal-state.ts";
import { signRequest } from "../tools/bridge-client/sign.ts";
import { BUILD_DIR, handlerFlags, REPO_DIR, RUNTIME_DIR } from "./harness/build.ts";
import { maskMql, translateMql, type MqlDialect } from "./harness/translate.ts";

const SECRET = "3f9a0c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";

function gpp(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("g++", args, { cwd: REPO_DIR, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`g++ failed:\n${stderr}${stdout}`));
      else resolve();
    });
  });
}

/** Translates the fixture and the shared includes into a private tree and compiles them. */
async function buildFixture(dialect: MqlDialect): Promise<string> {
  const terminal = dialect === "mql5" ? "MQL5" : "MQL4";
  const fixtureRel = `terminals/harness/fixtures/core-units.${dialect === "mql5" ? "mq5" : "mq4"}`;
  const out = path.join(BUILD_DIR, `core-units-${dialect}-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const includeRel = `terminals/${terminal}/Include/CopyBridge`;
  // Mirror the repository layout below `out` so relative includes resolve as in the repository.
  mkdirSync(path.join(out, includeRel), { recursive: true });
  mkdirSync(path.join(out, "terminals/harness/fixtures"), { recursive: true });
  const masked: string[] = [];
  for (const name of readdirSync(path.join(REPO_DIR, includeRel))) {
    if (!name.endsWith(".mqh")) continue;
    const rel = `${includeRel}/${name}`;
    const source = readFileSync(path.join(REPO_DIR, rel), "utf8");
    writeFileSync(path.join(out, rel), translateMql(source, { file: rel, dialect }));
  }
  const fixture = readFileSync(path.join(REPO_DIR, fixtureRel), "utf8");
  masked.push(maskMql(fixture));
  writeFileSync(path.join(out, fixtureRel), translateMql(fixture, { file: fixtureRel, dialect }));
  const unit = path.join(out, "unit.cpp");
  writeFileSync(unit, `#include "${fixtureRel}"\n#include "main.cpp"\n`);
  const binary = path.join(out, "core-units");
  const built = gpp([
    "-std=c++17",
    "-O0",
    "-fsigned-char",
    dialect === "mql5" ? "-D__MQL5__" : "-D__MQL4__",
    ...handlerFlags(masked),
    "-I",
    RUNTIME_DIR,
    // Nested includes are rewritten relative to the terminal folder (Include/CopyBridge/X.mqh).
    "-I",
    path.join(out, `terminals/${terminal}`),
    "-o",
    binary,
    unit,
    "-lcrypto",
  ]);
  // A failed build leaves nothing behind (afterAll never sees the folder then).
  await built.catch((e: unknown) => {
    rmSync(out, { recursive: true, force: true });
    throw e;
  });
  return out;
}

/** Runs the fixture; returns result name → decoded text, and the raw output. */
async function runFixture(binary: string, files: string): Promise<{ results: Map<string, string>; output: string }> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(binary, ["--files", files], { stdio: ["pipe", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (c: Buffer) => (text += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (text += c.toString("utf8")));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`fixture exited with ${code}:\n${text}`))));
    // The fixture reads its cases from the file and may exit before it reads "quit": a pipe it
    // closed first (EPIPE) is not a failure — its exit code and output decide.
    child.stdin.on("error", () => undefined);
    child.stdin.end("quit\n");
  });
  if (!output.includes("CBT done")) throw new Error(`fixture did not finish:\n${output}`);
  const results = new Map<string, string>();
  for (const line of output.split("\n")) {
    const m = /CBT (\S+) ([0-9a-f]*)$/.exec(line);
    if (m?.[1]) results.set(m[1], Buffer.from(m[2] ?? "", "hex").toString("utf8"));
  }
  return { results, output };
}

describe.each(["mql5", "mql4"] as const)("shared includes compiled as %s", (dialect) => {
  let dir = "";
  let files = "";
  let output = "";
  let results = new Map<string, string>();
  const get = (name: string): string => {
    const v = results.get(name);
    if (v === undefined) throw new Error(`no result ${name} in:\n${output}`);
    return v;
  };
  const json = (name: string): unknown => JSON.parse(get(name)) as unknown;

  beforeAll(async () => {
    dir = await buildFixture(dialect);
    files = mkdtempSync(path.join(tmpdir(), "cb-core-units-"));
    ({ results, output } = await runFixture(path.join(dir, "core-units"), files));
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it("saves the store atomically and reads every key and value back", () => {
    expect(get("store.saved")).toBe("true true false");
    expect(get("store.keys")).toBe("plain;weird=key\\x;num;");
    expect(get("store.weird")).toBe("line1\nline2\r=eq\\back é€😀");
    expect(get("store.num")).toBe("43");
    expect(get("store.missing")).toBe("missing");
    expect(get("store.changed")).toBe("changed");
  });

  it("writes the store as plain ASCII lines ending with #end", () => {
    const text = readFileSync(path.join(files, "fx-store.dat"), "latin1");
    expect(/^[\x20-\x7e\r\n]*$/.test(text)).toBe(true);
    expect(text.trimEnd().split(/\r?\n/).at(-1)).toBe("#end");
  });

  it("does not trust a state file that was cut short", () => {
    expect(get("store.cut")).toBe("false none");
  });

  it("checks trading hours in broker time, over midnight and across the week end", () => {
    expect(get("hours").split(",")).toEqual(["true", "false", "true", "false", "true", "true", "false", "true", "false", "true", "true false"]);
  });

  it("matches symbol lists case-insensitively and exactly", () => {
    expect(get("lists")).toBe("true,false,false");
  });

  it("parses a poll answer's orders, keeping decimals as text and 64-bit tickets exact", () => {
    expect(get("parse.orders").split("|")).toEqual([
      "true true 2",
      "0f8fad5b-d9cb-469f-a165-70867728950e",
      "OPEN",
      "18446744073709551615",
      "",
      "EURUSD.a",
      "BUY",
      "MARKET",
      "0.75",
      "0.75",
      "1.08456",
      "1.08456",
      "",
      "1.08000",
      "",
      "0.0",
      "cb:18446744073709551615",
      "20241121",
      "30",
      "-1",
      "1732200000123",
      "2",
      "CLOSE_ALL",
      "-1",
    ]);
  });

  it("parses the bridge config and the EA profile", () => {
    expect(get("parse.profile")).toBe("true|true|true|30|20|4|300|false|EURUSD.a,GBPUSD.a||Mon-Fri:00:00-23:59|100.50|true");
    expect(get("parse.empty")).toBe("true|false|-1|true|0");
  });

  it("reads an order's 13-digit expiresAtMs exactly (null = 0) and config.closeOnly (absent = false)", () => {
    expect(get("parse.protection")).toBe("1732200060123|0|true|false");
  });

  it("builds heartbeats the server accepts, with margin fields and the broker offset", () => {
    const master = masterHeartbeatSchema.parse(json("body.masterHeartbeat"));
    expect(master).toMatchObject({ login: "50001234", server: "Sim-Demo", balance: "10000.00", equity: "10012.50", currency: "USD" });
    expect(master).toMatchObject({ margin: "120.25", freeMargin: "9892.25", leverage: 100, marginMode: "netting", brokerUtcOffsetSec: 7200 });
    expect(typeof master.nonce).toBe("string");
    const slave = slaveHeartbeatSchema.parse(json("body.slaveHeartbeat"));
    expect(slave).toMatchObject({ accountNumber: "7001", status: "active", marginMode: "netting" });
  });

  it("builds signal events the server accepts, tickets as strings", () => {
    const event = signalEventSchema.parse(json("body.event"));
    expect(event.order).toMatchObject({
      ticket: "18446744073709551615",
      side: "BUY",
      orderType: "STOP_LIMIT",
      volume: "0.5",
      price: "1.08456",
      stopLimitPrice: "1.08356",
      sl: "1.08000",
      tp: null,
      comment: 'Grüße "q"',
    });
    expect(event.idempotencyKey).toBe("50001234-18446744073709551615-popen-1");
    expect(get("body.event")).toContain('"ticket":"18446744073709551615"');
  });

  it("builds snapshots the server accepts, times converted from broker time to UTC", () => {
    const snap = snapshotSchema.parse(json("body.snapshot"));
    expect(snap.positions).toHaveLength(1);
    expect(snap.orders).toHaveLength(1);
    expect(snap.positions[0]).toMatchObject({ ticket: "18446744073709551615", openPrice: "1.08456", openTime: 1732200000, magic: "20241121" });
    expect(snap.orders[0]).toMatchObject({ orderType: "STOP_LIMIT", stopLimitPrice: "1.08356", setupTime: 1732200000, tp: null });
  });

  it("builds symbol specs, polls and reports the server accepts", () => {
    const symbols = slaveSymbolsSchema.parse(json("body.symbols"));
    expect(symbols.symbols[0]).toMatchObject({ symbol: "EURUSD.a", digits: 5, point: "0.00001", volumeStep: "0.01", tradeMode: "full", stopsLevel: 10 });
    expect(slavePollSchema.parse(json("body.poll"))).toMatchObject({ waitMs: 3000, limit: 50, redeliver: true });
    const report = executionReportSchema.parse(json("body.report"));
    expect(report).toMatchObject({ status: "filled", slaveTicket: "9007199254740993", fillPrice: "1.08461", volume: "0.75", point: "0.00001", profit: "-3.50" });
    expect(report.fillTime).toBeCloseTo(1732200000.412, 3);
    const rejected = executionReportSchema.parse(json("body.rejected"));
    expect(rejected).toMatchObject({ status: "rejected", errorMessage: "Spread 35 pts > max 30 pts", accountNumber: "7001" });
  });

  it("refuses bad inputs naming them", () => {
    const lines = get("http.init").split("\n");
    expect(lines[0]).toMatch(/^false:Server URL \(InpServerUrl\)/);
    expect(lines[1]).toMatch(/^false:Server URL \(InpServerUrl\) must start with http:\/\/ or https:\/\//);
    expect(lines[2]).toMatch(/^false:Server URL \(InpServerUrl\)/);
    expect(lines[3]).toMatch(/^false:API key \(InpApiKey\)/);
    expect(lines[4]).toMatch(/^false:API secret \(InpApiSecret\)/);
    expect(lines[5]).toBe("true:https://copy.example.com");
  });

  it("tells the user to allow the URL when WebRequest refuses it", () => {
    expect(output).toContain('Add http://127.0.0.1:9 under Tools -> Options -> Expert Advisors -> "Allow WebRequest for listed URL"');
    const [status, fatal, error] = get("http.notallowed").split("|");
    expect(status).toBe("-1");
    expect(fatal).toBe("false");
    expect(error).toContain("http://127.0.0.1:9");
  });

  it("signs like the server's signing code", () => {
    expect(get("http.sign")).toBe(signRequest(SECRET, "POST", "/v1/master/heartbeat", "1732200000", '{"a":1}'));
  });
});

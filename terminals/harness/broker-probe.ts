/**
 * The simulated broker (runtime/broker*.h) driven through the probe EAs in fixtures/broker, for
 * broker-mt5.test.ts and broker-mt4.test.ts: the test writes one command into the EA's
 * Files/probe.txt, sends a `price` line (→ OnTick runs the command) and reads what the EA printed;
 * MT5 trade transactions arrive as "TX" lines.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { buildEa, HARNESS_DIR } from "./build.ts";

export const SYM = "EURUSD.a";

export type Json = Record<string, unknown>;

export interface Answer {
  answer: Json;
  /** Lines the EA printed between the previous answer and this one. */
  lines: string[];
}

export interface Term {
  files: string;
  send: (line: string) => Promise<Answer>;
  /** Runs one probe command at the quote bid/ask and returns the EA's output. */
  probe: (command: string, bid?: string, ask?: string) => Promise<string[]>;
  kill: () => Promise<void>;
  quit: () => Promise<number | null>;
}

export interface BrokerOptions {
  marginMode?: "hedging" | "netting";
  fillingMode?: number;
  exeMode?: number;
  bigTickets?: boolean;
}

let tmp = "";
let seq = 0;
const running: ChildProcessWithoutNullStreams[] = [];

export function brokerDir(opts: BrokerOptions): string {
  const dir = path.join(tmp, `t${++seq}`);
  mkdirSync(path.join(dir, "files"), { recursive: true });
  const config = {
    login: 50001234,
    server: "Sim-Demo",
    company: "Sim",
    currency: "USD",
    balance: "10000",
    leverage: 100,
    marginMode: opts.marginMode ?? "hedging",
    bigTickets: opts.bigTickets ?? false,
    symbols: [
      {
        name: SYM, digits: 5, point: 0.00001, bid: 1.0845, ask: 1.0846, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100,
        contractSize: 100000, tickSize: 0.00001, tickValue: 1, stopsLevel: 0, freezeLevel: 0, tradeMode: 4,
        fillingMode: opts.fillingMode ?? 3, exeMode: opts.exeMode ?? 2,
      },
    ],
    stateFile: "book.json",
  };
  writeFileSync(path.join(dir, "broker.json"), JSON.stringify(config));
  return dir;
}

export function start(binary: string, dir: string): Term {
  const files = path.join(dir, "files");
  const child = spawn(binary, ["--files", files, "--broker", path.join(dir, "broker.json")], { stdio: ["pipe", "pipe", "pipe"] });
  running.push(child);
  let buf = "";
  let stderr = "";
  let collected: string[] = [];
  const waiters: { resolve: (a: Answer) => void; reject: (e: Error) => void }[] = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.startsWith("@@ ")) {
        const w = waiters.shift();
        const lines = collected;
        collected = [];
        if (w) w.resolve({ answer: JSON.parse(line.slice(3)) as Json, lines });
      } else {
        collected.push(line);
      }
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => (stderr += c));
  const exit = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`process exited (${code}); output:\n${collected.join("\n")}\n${stderr}`));
      resolve(code);
    }),
  );
  const send = (line: string): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      waiters.push({ resolve, reject });
      child.stdin.write(`${line}\n`);
    });
  const probe = async (command: string, bid = "1.08450", ask = "1.08460"): Promise<string[]> => {
    writeFileSync(path.join(files, "probe.txt"), `${command}\n`);
    const a = await send(`price ${SYM} ${bid} ${ask}`);
    expect(a.answer.ok).toBe(true);
    const b = await send("wait 30");
    return [...a.lines, ...b.lines];
  };
  const kill = async (): Promise<void> => {
    child.kill("SIGKILL");
    await exit;
  };
  const quit = async (): Promise<number | null> => {
    child.stdin.write("quit\n");
    return exit;
  };
  return { files, send, probe, kill, quit };
}

/** Fields of the first line starting with `tag ` ("RES retcode=10009 order=…" → {retcode: "10009", …}). */
export function fields(lines: string[], tag: string): Record<string, string> {
  const line = lines.find((l) => l.startsWith(`${tag} `));
  if (line === undefined) throw new Error(`no ${tag} line in:\n${lines.join("\n")}`);
  return parseFields(line);
}

function parseFields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /(\w+)=(.*?)(?= \w+=|$)/g;
  for (const m of line.matchAll(re)) out[m[1] ?? ""] = m[2] ?? "";
  return out;
}

export function all(lines: string[], tag: string): Record<string, string>[] {
  return lines.filter((l) => l.startsWith(`${tag} `)).map(parseFields);
}

/** Transaction types in arrival order (ENUM_TRADE_TRANSACTION_TYPE values). */
export function txTypes(lines: string[]): number[] {
  return all(lines, "TX").map((t) => Number(t.type));
}

export interface BookPosition {
  ticket: string;
  side: string;
  volume: string;
  openPrice: string;
  sl: string;
  comment: string;
  magic: number;
}
export interface BookOrder {
  ticket: string;
  type: string;
  volume: string;
  price: string;
}

export async function book(t: Term): Promise<{ positions: BookPosition[]; orders: BookOrder[]; balance: string }> {
  const { answer } = await t.send("book");
  return answer as unknown as { positions: BookPosition[]; orders: BookOrder[]; balance: string };
}

/**
 * Builds the probe EA `fixtures/broker/<name>` (g++, once per suite) and cleans every broker
 * folder and process of the suite afterwards. `binary()` is the compiled probe, valid in tests.
 */
export function useBrokerProbe(name: "BrokerProbe.mq5" | "BrokerProbe.mq4"): { binary: () => string } {
  let binary = "";
  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "cb-broker-"));
    binary = (await buildEa(path.join(HARNESS_DIR, "fixtures", "broker", name))).binary;
  }, 240_000);
  afterAll(() => {
    for (const c of running) if (c.exitCode === null) c.kill("SIGKILL");
    if (tmp && existsSync(tmp)) rmSync(tmp, { recursive: true, force: true });
  });
  return { binary: () => binary };
}

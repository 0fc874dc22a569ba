/**
 * One Expert Advisor compiled by the harness (terminals/harness/build.ts), run as a process with
 * its own simulated broker (terminals/harness/DESIGN.md §5). Commands go to stdin one per line;
 * each is answered by one `@@ {json}` line on stdout, in order. Everything else the EA prints is
 * kept in `output` for failure messages.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A symbol of the simulated broker (DESIGN.md §5 broker.json). Prices as quoted, volumes in lots. */
export interface SimSymbol {
  name: string;
  digits: number;
  point: number;
  bid: number;
  ask: number;
  volumeMin: number;
  volumeStep: number;
  volumeMax: number;
  contractSize: number;
  tickSize: number;
  tickValue: number;
  stopsLevel: number;
  freezeLevel: number;
  tradeMode: number;
  fillingMode: number;
  exeMode: number;
}

export interface SimBroker {
  login: number;
  server: string;
  company: string;
  currency: string;
  balance: string;
  leverage: number;
  marginMode: "hedging" | "netting";
  bigTickets?: boolean;
  symbols: SimSymbol[];
}

/** The book as the `book` command prints it (volumes and prices as strings). */
export interface SimBook {
  positions: { ticket: string; symbol: string; side: string; volume: string; openPrice: string; sl: string; tp: string; magic: string | number; comment: string }[];
  orders: { ticket: string; symbol: string; type: string; volume: string; price: string; sl: string; tp: string; magic: string | number; comment: string }[];
}

/** A 5-digit FX symbol with the usual contract; `fillingMode` 1 = FOK only. */
export function fxSymbol(name: string, bid: number, overrides: Partial<SimSymbol> = {}): SimSymbol {
  return {
    name,
    digits: 5,
    point: 0.00001,
    bid,
    ask: Number((bid + 0.0001).toFixed(5)),
    volumeMin: 0.01,
    volumeStep: 0.01,
    volumeMax: 100,
    contractSize: 100000,
    tickSize: 0.00001,
    tickValue: 1,
    stopsLevel: 0,
    freezeLevel: 0,
    tradeMode: 4,
    fillingMode: 1,
    exeMode: 2,
    ...overrides,
  };
}

export interface EaSpec {
  /** Compiled binary from build.ts. */
  binary: string;
  /** Folder of this terminal (Files sandbox and broker state live below it; kept across restarts). */
  dir: string;
  broker: SimBroker;
  inputs: Record<string, string>;
  allowUrl: string;
}

export class EaProcess {
  readonly output: string[] = [];
  private child: ChildProcess | null = null;
  private waiting: { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }[] = [];
  private exited: Promise<number | null> = Promise.resolve(null);
  private buffer = "";

  constructor(readonly name: string, readonly spec: EaSpec) {}

  /**
   * Starts (or restarts) the process; the broker state file and Files folder survive restarts.
   * `detached`: the terminal runs without the EA attached (manual trading while the EA is off).
   */
  start(opts: { detached?: boolean } = {}): void {
    const { dir, broker, inputs, binary, allowUrl } = this.spec;
    mkdirSync(join(dir, "Files"), { recursive: true });
    const brokerPath = join(dir, "broker.json");
    writeFileSync(brokerPath, JSON.stringify({ ...broker, stateFile: join(dir, "book.json") }, null, 2));
    const args = ["--files", join(dir, "Files"), "--broker", brokerPath, "--allow-url", allowUrl];
    for (const [k, v] of Object.entries(inputs)) args.push("--input", `${k}=${v}`);
    if (opts.detached) args.push("--detached");
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    this.buffer = "";
    child.stdout.on("data", (chunk: Buffer) => this.onData(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => this.output.push(...chunk.toString().split("\n").filter(Boolean).map((l) => `[stderr] ${l}`)));
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.output.push(`[exit] code=${code} signal=${signal}`);
        for (const w of this.waiting.splice(0)) w.reject(new Error(`${this.name} exited (${code ?? signal}) while a command was waiting`));
        resolve(code);
      });
    });
  }

  private onData(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line.startsWith("@@ ")) {
        const w = this.waiting.shift();
        try {
          w?.resolve(JSON.parse(line.slice(3)) as Record<string, unknown>);
        } catch (e) {
          w?.reject(new Error(`${this.name}: bad answer ${line}: ${String(e)}`));
        }
      } else {
        this.output.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
      }
    }
  }

  /** Sends one control command and resolves with its `@@` answer. */
  command<T = Record<string, unknown>>(line: string, timeoutMs = 30_000): Promise<T> {
    const child = this.child;
    if (!child?.stdin || child.exitCode !== null) return Promise.reject(new Error(`${this.name} is not running`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no answer to "${line}" in ${timeoutMs} ms\n${this.tail()}`)), timeoutMs);
      this.waiting.push({
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.stdin!.write(`${line}\n`);
    });
  }

  /** Like command(), but fails unless the answer says ok. */
  async ok<T = Record<string, unknown>>(line: string): Promise<T> {
    const a = await this.command<Record<string, unknown>>(line);
    if (a.ok !== true) throw new Error(`${this.name}: "${line}" answered ${JSON.stringify(a)}\n${this.tail()}`);
    return a as T;
  }

  book(): Promise<SimBook> {
    return this.command<SimBook>("book");
  }

  /** Last lines the EA printed, for failure messages. */
  tail(n = 40): string {
    return this.output.slice(-n).map((l) => `  ${this.name}| ${l}`).join("\n");
  }

  /** kill -9: the terminal dies without OnDeinit. */
  async crash(): Promise<void> {
    this.child?.kill("SIGKILL");
    await this.exited;
  }

  /** A clean stop: `quit` (OnDeinit runs), then SIGKILL if it hangs. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.write("quit\n");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** Resolves with the exit code once the process ends by itself (null when killed by a signal). */
  exitCode(): Promise<number | null> {
    return this.exited;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
}

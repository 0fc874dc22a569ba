/**
 * What a throughput scenario runs against: the real server (PGlite or PostgreSQL, its own process,
 * a fresh database, one tenant with a master and N slaves with their keys) or the baseline relay
 * (relay-server.ts, its own process; with a durable commit on a fresh PostgreSQL database). Both
 * are driven through the same BridgeClient, so the client side of every comparison is identical.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { setUpBridge } from "../../e2e/support/bridge.ts";
import { startServer, type RunningServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import { BridgeClient } from "../bridge-client/client.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export type TargetKind = DbKind | "relay" | "relay-durable";

export const TARGET_LABELS: Record<TargetKind, string> = {
  pglite: "CopyBridge, PGlite",
  postgres: "CopyBridge, PostgreSQL",
  relay: "baseline: bare node:http relay",
  "relay-durable": "baseline: relay + durable INSERT/COMMIT (PostgreSQL)",
};

export interface Target {
  kind: TargetKind;
  label: string;
  url: string;
  /** The process doing the work (its CPU is what a scenario measures). */
  pid: number;
  /** Whether PostgreSQL does part of the work (then its processes' CPU counts too). */
  usesPostgres: boolean;
  /** The target's database on PostgreSQL, for checks after a run. */
  databaseUrl: string | null;
  /** The master's client (`connections` keep-alive sockets: concurrent POSTs need as many). */
  master: BridgeClient;
  slaves: BridgeClient[];
  /** The server process (null for a relay): e.g. for its event-loop probe's signal. */
  server: RunningServer | null;
  stop(): Promise<void>;
}

export interface TargetOptions {
  slaves: number;
  /** Sockets of the master's client (default 4). */
  masterConnections?: number;
  /** Extra server environment (a relay ignores it). */
  env?: Record<string, string>;
}

/** Starts `kind` with a tenant of `opts.slaves` slaves. */
export function startTarget(kind: TargetKind, opts: TargetOptions): Promise<Target> {
  return kind === "relay" || kind === "relay-durable" ? startRelay(kind, opts) : startCopyServer(kind, opts);
}

async function startCopyServer(db: DbKind, opts: TargetOptions): Promise<Target> {
  const database = await createTestDatabase(db);
  const server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", ...opts.env });
  try {
    const t = await signUp(server.url);
    const bridge = await setUpBridge(t.api, server.url, opts.slaves, { retryOverloaded: 0 });
    await bridge.master.close();
    const master = new BridgeClient(server.url, bridge.keys.master, { connections: opts.masterConnections ?? 4, retryOverloaded: 0 });
    return {
      kind: db,
      label: TARGET_LABELS[db],
      url: server.url,
      pid: server.pid,
      usesPostgres: db === "postgres",
      databaseUrl: database.env.DATABASE_URL ?? null,
      master,
      slaves: bridge.slaves,
      server,
      stop: async () => {
        await master.destroy();
        await Promise.all(bridge.slaves.map((s) => s.destroy()));
        await server.stop();
        await database.drop();
      },
    };
  } catch (err) {
    await server.stop();
    await database.drop();
    throw err;
  }
}

async function startRelay(kind: "relay" | "relay-durable", opts: TargetOptions): Promise<Target> {
  const database = kind === "relay-durable" ? await createTestDatabase("postgres") : null;
  const child = spawn(process.execPath, ["--import", "tsx", "tools/bench/relay-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, RELAY_SLAVES: String(opts.slaves), RELAY_DATABASE_URL: database?.env.DATABASE_URL ?? "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /PORT (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`relay exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  // The relay does not check signatures; any key/secret pair signs the same way the server's clients do.
  const master = new BridgeClient(url, { apiKey: "master", secret: "relay" }, { connections: opts.masterConnections ?? 4, retryOverloaded: 0 });
  const slaves = Array.from({ length: opts.slaves }, (_, i) => new BridgeClient(url, { apiKey: `slave-${i}`, secret: "relay" }, { retryOverloaded: 0 }));
  return {
    kind,
    label: TARGET_LABELS[kind],
    url,
    pid: child.pid ?? 0,
    usesPostgres: database !== null,
    databaseUrl: database?.env.DATABASE_URL ?? null,
    master,
    slaves,
    server: null,
    stop: async () => {
      await master.destroy();
      await Promise.all(slaves.map((s) => s.destroy()));
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      });
      await database?.drop();
    },
  };
}

/** A temporary file path for the server's event-loop probe (BENCH_LOOP_DELAY_FILE); removed by `done()`. */
export function loopDelayFile(): { path: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), "cb-bench-"));
  return { path: join(dir, "loop-delay.json"), done: () => rmSync(dir, { recursive: true, force: true }) };
}

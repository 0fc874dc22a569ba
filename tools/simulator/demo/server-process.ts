/**
 * Runs the CopyBridge server for the demo: reuses one already answering at the URL, otherwise
 * starts the server as `npm start` does (tools/server-command.mjs; embedded PGlite under DATA_DIR)
 * as a child process with its output in DATA_DIR/server.log, and waits until it answers HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "../util.ts";
import { serverNodeArgs } from "../../server-command.mjs";

export interface ServerHandle {
  url: string;
  /** false when an already running server was reused (stop() then does nothing). */
  started: boolean;
  logPath: string | undefined;
  /** SIGINT, then SIGKILL after 30 s; resolves when the child has exited. */
  stop(): Promise<void>;
}

/** true when something answers HTTP at `url` (any status: a 401 means the server is up). */
export async function serverAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/auth/me`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

export interface EnsureServerOptions {
  url: string;
  /** Repository root (the child's working directory). */
  root: string;
  /** Absolute DATA_DIR for a started server. */
  dataDir: string;
  /** Give up after this many ms (migrations on a fresh PGlite take a few seconds). */
  timeoutMs?: number;
}

export async function ensureServer(opts: EnsureServerOptions): Promise<ServerHandle> {
  if (await serverAnswers(opts.url)) return { url: opts.url, started: false, logPath: undefined, stop: async () => {} };
  const { hostname, port } = new URL(opts.url);
  mkdirSync(opts.dataDir, { recursive: true });
  const logPath = join(opts.dataDir, "server.log");
  const logFile = createWriteStream(logPath, { flags: "a" });
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: opts.root,
    env: { ...process.env, PORT: port || "80", HOST: hostname, DATA_DIR: opts.dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    // Own process group: Ctrl-C reaches only the demo, which stops the server after the
    // simulator has closed its positions (the server must still be up for that).
    detached: true,
  });
  const orphanGuard = () => child.kill("SIGINT");
  process.once("exit", orphanGuard);
  child.stdout.pipe(logFile, { end: false });
  child.stderr.pipe(logFile, { end: false });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  while (!(await serverAnswers(opts.url))) {
    if (exitCode !== undefined) throw new Error(`the server exited (code ${exitCode}) before listening; end of ${logPath}:\n${tail(logPath)}`);
    if (Date.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(`the server did not answer at ${opts.url} within ${Math.round((opts.timeoutMs ?? 90_000) / 1000)} s; see ${logPath}`);
    }
    await sleep(300);
  }
  return {
    url: opts.url,
    started: true,
    logPath,
    stop: async () => {
      process.off("exit", orphanGuard);
      await stopChild(child, exited);
      logFile.end();
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGINT");
  // PGlite flushes on a graceful close; SIGKILL is the last resort.
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

function tail(path: string, lines = 20): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Runs the real server as a child process (`node` with tools/server-command.mjs serverNodeArgs: the
 * options and entry point of `npm start`) on a free port, and stops it. Integration and browser
 * suites talk to it over HTTP/WS only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serverNodeArgs } from "../../tools/server-command.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  /** The server process's id (benchmarks read its CPU time from /proc). */
  pid: number;
  /** Log lines printed so far (JSON lines from pino). */
  output: string[];
  /** Sends a signal to the process (SIGKILL simulates a crash; follow with stop()). */
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string | undefined>): Promise<RunningServer> {
  // CB_SERVER_NODE_ARGS lets a benchmark add e.g. --cpu-prof to the server process only.
  const extra = process.env.CB_SERVER_NODE_ARGS ? process.env.CB_SERVER_NODE_ARGS.split(" ") : [];
  const child: ChildProcess = spawn(process.execPath, serverNodeArgs(extra), {
    cwd: ROOT,
    // The alert fakes (fake-services.ts) listen on 127.0.0.1 over plain http:, which outgoing calls
    // refuse unless allow-listed; a suite about that refusal passes its own, narrower list.
    // In tests shedding on event-loop delay is off: it follows the machine's load, not the
    // request, and a suite asserts behaviour (bridge-overload.test.ts tests admission with limits
    // of its own; admission.test.ts the delay rule). Benchmarks (NODE_ENV production) keep the default.
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      OUTBOUND_HTTP_ALLOW_HOSTS: "127.0.0.1",
      ...(env.NODE_ENV === "production" ? {} : { BRIDGE_MAX_EVENT_LOOP_DELAY_MS: "0" }),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output.join("\n")}`)), 60_000);
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line) continue;
        output.push(line);
        const m = /CopyBridge listening on (http:\/\/[^\s"]+)/.exec(line);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      }
    };
    child.stdout?.on("data", onLine);
    child.stderr?.on("data", onLine);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join("\n")}`));
    });
  });
  const port = Number(new URL(url).port);
  return {
    url,
    port,
    pid: child.pid ?? 0,
    output,
    kill: (signal) => {
      child.kill(signal);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        // A process ended by a signal (SIGKILL) has no exit code, only a signal code.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

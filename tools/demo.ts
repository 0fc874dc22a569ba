/**
 * `npm run demo`: starts the server (or reuses one already answering at --url), sets up a demo
 * organisation through the public API — master, three slaves with mappings, multipliers and risk
 * limits, bridge API keys — prints the dashboard login and runs the terminal simulator until Ctrl-C.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Account } from "#contract";
import { buildDashboard, dashboardNeedsBuild } from "./dashboard-build.mjs";
import { DashboardApi } from "./simulator/demo/dashboard-api.ts";
import { DEMO_EMAIL, DEMO_PASSWORD, demoPlan } from "./simulator/demo/demo-plan.ts";
import { provision, signIn } from "./simulator/demo/provision.ts";
import { ensureServer, serverAnswers, type ServerHandle } from "./simulator/demo/server-process.ts";
import type { SimOptions } from "./simulator/options.ts";
import { startSimulation } from "./simulator/run.ts";

const USAGE = `Usage: npm run demo -- [options]

  --url URL          server to use or start (default http://127.0.0.1:$PORT, PORT default 3000)
  --port N           port for a started server (env PORT)
  --data-dir DIR     DATA_DIR of a started server (env DATA_DIR, default ./data-demo); the
                     simulator keeps its terminals' state in DIR/simulator
  --email EMAIL      demo login (default ${DEMO_EMAIL})
  --password PASS    demo password (default ${DEMO_PASSWORD})
  --rate N           master events per minute (default 20)
  --duration S       stop after S seconds (default: run until Ctrl-C)
  --seed N           random seed of the simulator
  --quiet            summaries only, no trade-by-trade lines
  --no-build         do not build the dashboard even if web/dist is missing or stale`;

const root = fileURLToPath(new URL("..", import.meta.url));
const say = (line: string) => console.info(`demo: ${line}`);

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      port: { type: "string" },
      "data-dir": { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      rate: { type: "string" },
      duration: { type: "string" },
      seed: { type: "string" },
      quiet: { type: "boolean" },
      "no-build": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.info(USAGE);
    process.exit(0);
  }
  const port = values.port ?? process.env.PORT ?? "3000";
  const int = (name: string, raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`invalid --${name}: ${raw}`);
    return n;
  };
  return {
    url: (values.url ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ""),
    dataDir: resolve(values["data-dir"] ?? process.env.DATA_DIR ?? "./data-demo"),
    email: values.email ?? DEMO_EMAIL,
    password: values.password ?? DEMO_PASSWORD,
    rate: int("rate", values.rate, 20),
    duration: int("duration", values.duration, 0),
    seed: int("seed", values.seed, Math.floor(Math.random() * 2 ** 31)),
    quiet: values.quiet ?? false,
    build: !values["no-build"],
  };
}

/**
 * A re-run continues from the balance the server last heard (so the daily loss stop, measured
 * from the day's first reported balance, sees no artificial jump); a new account starts at `fallback`.
 */
function startBalance(account: Account, fallback: number): number {
  const known = Number(account.balance);
  return account.lastHeartbeat && known > 0 ? known : fallback;
}

async function main(): Promise<void> {
  const opts = options();
  let server: ServerHandle | undefined;
  const stopServer = async () => {
    if (!server?.started) return;
    say("stopping the server…");
    await server.stop();
    say("server stopped");
  };
  try {
    if (!(await serverAnswers(opts.url)) && opts.build && dashboardNeedsBuild(root)) {
      say("building the dashboard (web/dist)…");
      if (!(await buildDashboard(root))) say("dashboard build failed: the API and the bridge still work; see the errors above");
    }
    server = await ensureServer({ url: opts.url, root, dataDir: opts.dataDir });
    say(server.started ? `server started on ${opts.url} (DATA_DIR ${opts.dataDir}, log ${server.logPath})` : `reusing the server already running at ${opts.url}`);

    const plan = demoPlan(opts.email, opts.password);
    const api = new DashboardApi(opts.url);
    await signIn(api, plan, say);
    const setup = await provision(api, plan, say);

    const line = "─".repeat(72);
    console.info(
      [
        line,
        `  Dashboard   ${opts.url}`,
        `  Email       ${opts.email}`,
        `  Password    ${opts.password}`,
        `  Master ${setup.master.account.accountNumber} (${plan.master.alias}) copies to:`,
        ...plan.slaves.map((s) => `    ${s.accountNumber} ${s.alias.padEnd(8)} ${s.rules}`),
        `  First trades in a few seconds. Ctrl-C stops the simulator${server.started ? " and the server" : ""}.`,
        line,
      ].join("\n"),
    );

    const simOptions: SimOptions = {
      url: opts.url,
      master: { apiKey: setup.master.apiKey, secret: setup.master.secret, login: setup.master.account.accountNumber, server: plan.master.broker, balance: startBalance(setup.master.account, plan.master.balance) },
      slaves: setup.slaves.map((s, i) => ({
        apiKey: s.apiKey,
        secret: s.secret,
        login: s.account.accountNumber,
        server: plan.slaves[i]?.broker ?? "Demo-Broker",
        balance: startBalance(s.account, plan.slaves[i]?.balance ?? 10_000),
        platform: "MT4" as const,
        name: `slave-${s.account.accountNumber}`,
      })),
      ratePerMin: opts.rate,
      durationS: opts.duration,
      seed: opts.seed,
      quiet: opts.quiet,
      maxPositions: 6,
      maxPending: 3,
      rejectRate: 0.05,
      tickMs: 500,
      flatten: true,
      chaos: 0,
      // Slaves remember executed orders across demo runs, so a redelivery is never traded twice.
      stateDir: join(opts.dataDir, "simulator"),
    };
    const sim = await startSimulation(simOptions);
    let firstInterrupt = 0;
    const onSignal = () => {
      // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): only a press
      // more than a second after the first one means "exit at once".
      if (firstInterrupt && Date.now() - firstInterrupt > 1000) {
        console.error("interrupted again: exiting without waiting");
        void stopServer().finally(() => process.exit(130));
        return;
      }
      if (firstInterrupt) return;
      firstInterrupt = Date.now();
      say("stopping: closing the master's positions, letting the slaves report (Ctrl-C again to exit at once)…");
      void sim.stop();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    await sim.done;
    await stopServer();
    process.exit(0);
  } catch (err) {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopServer();
    process.exit(1);
  }
}

void main();

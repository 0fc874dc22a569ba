/**
 * Simulator options from the command line, the environment and an optional JSON config file
 * (precedence in that order, then defaults).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";

const credentials = { apiKey: z.string().min(1), secret: z.string().min(1) };
const terminal = { login: z.string().min(1).optional(), server: z.string().min(1).optional(), balance: z.number().positive().optional() };

const masterConfigSchema = z.object({ ...credentials, ...terminal });
const slaveConfigSchema = z.object({
  ...credentials,
  ...terminal,
  /** Needed only for an unbound SLAVE key. */
  accountId: z.string().min(1).optional(),
  platform: z.enum(["MT4", "MT5"]).optional(),
  name: z.string().min(1).optional(),
});

/** The --config file: `{ url, master: {apiKey, secret}, slaves: [{apiKey, secret, accountId?}] }`. */
export const simConfigFileSchema = z.object({
  url: z.string().url().optional(),
  master: masterConfigSchema.optional(),
  slaves: z.array(slaveConfigSchema).optional(),
});
export type SimConfigFile = z.infer<typeof simConfigFileSchema>;

export type MasterCredentials = z.infer<typeof masterConfigSchema>;
export type SlaveCredentials = z.infer<typeof slaveConfigSchema>;

export interface SimOptions {
  /** Bridge base URL, e.g. http://127.0.0.1:3000. */
  url: string;
  /** null: run slaves only (the master runs elsewhere). */
  master: MasterCredentials | null;
  slaves: SlaveCredentials[];
  /** Master events per minute. */
  ratePerMin: number;
  /** Seconds to run; 0 = until Ctrl-C. */
  durationS: number;
  seed: number;
  quiet: boolean;
  /** Maximum open master positions / pending orders. */
  maxPositions: number;
  maxPending: number;
  /** Probability (0–1) that a slave's broker refuses a market open. */
  rejectRate: number;
  /** Price feed step, ms. */
  tickMs: number;
  /** Close everything the master holds before exiting (default true). */
  flatten: boolean;
  /** Probability (0–1) of a lost signal answer (retried) or a withheld slave report (redelivered). */
  chaos: number;
  /** Folder where the terminals keep their books (and the last prices) across restarts; null: start empty. */
  stateDir: string | null;
}

export class OptionsError extends Error {}

export const USAGE = `Usage: npm run simulate -- [options]

  --url URL                 bridge server (default http://127.0.0.1:3000)        env SIM_URL
  --master-key KEY          master API key id                                     env SIM_MASTER_KEY
  --master-secret SECRET    master API key secret                                 env SIM_MASTER_SECRET
  --slave KEY:SECRET[:ACCOUNT_ID]  a slave key (repeat per slave)                 env SIM_SLAVES (comma-separated)
  --config FILE             JSON { url, master: {apiKey, secret}, slaves: [{apiKey, secret, accountId?}] }   env SIM_CONFIG
  --slaves N                use only the first N slaves                           env SIM_SLAVE_COUNT
  --rate N                  master events per minute (default 20)                 env SIM_RATE
  --duration S              seconds to run, 0 = until Ctrl-C (default 0)          env SIM_DURATION
  --seed N                  random seed for a reproducible run                    env SIM_SEED
  --max-positions N         open master positions at most (default 6)
  --max-pending N           pending master orders at most (default 3)
  --reject-rate P           broker rejection probability of a slave open, 0-1 (default 0.05)
  --tick-ms MS              price feed step (default 500)
  --no-flatten              leave master positions open on exit
  --state-dir DIR           keep the terminals' positions, executed order ids and prices here, so a
                            restart carries on instead of trading twice          env SIM_STATE_DIR
  --chaos P                 lose this share (0-1) of signal answers and slave reports on purpose,
                            to exercise idempotent retries and redelivery (default 0)
  --quiet                   no trade-by-trade lines, summaries only               env SIM_QUIET=1
  --help`;

/** Parses "KEY:SECRET[:ACCOUNT_ID]". */
export function parseSlaveSpec(spec: string): SlaveCredentials {
  const [apiKey, secret, accountId, ...rest] = spec.trim().split(":");
  if (!apiKey || !secret || rest.length) throw new OptionsError(`--slave expects KEY:SECRET[:ACCOUNT_ID], got "${spec}"`);
  return accountId ? { apiKey, secret, accountId } : { apiKey, secret };
}

function number(name: string, raw: string | undefined, fallback: number, check: (n: number) => boolean): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) throw new OptionsError(`invalid ${name}: "${raw}"`);
  return n;
}

const nonNegative = (n: number) => n >= 0;
const positiveInt = (n: number) => Number.isInteger(n) && n > 0;

/**
 * Builds the options. Throws OptionsError (message fit for the user) on a bad value, and with
 * the message "help" for --help. `readFile` is injectable for tests.
 */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env, readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): SimOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: "string" },
        "master-key": { type: "string" },
        "master-secret": { type: "string" },
        slave: { type: "string", multiple: true },
        config: { type: "string" },
        slaves: { type: "string" },
        rate: { type: "string" },
        duration: { type: "string" },
        seed: { type: "string" },
        "max-positions": { type: "string" },
        "max-pending": { type: "string" },
        "reject-rate": { type: "string" },
        "tick-ms": { type: "string" },
        "no-flatten": { type: "boolean" },
        chaos: { type: "string" },
        "state-dir": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (err) {
    throw new OptionsError(err instanceof Error ? err.message : String(err));
  }
  if (parsed.help) throw new OptionsError("help");

  const configPath = parsed.config ?? env.SIM_CONFIG;
  let file: SimConfigFile = {};
  if (configPath) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFile(configPath));
    } catch (err) {
      throw new OptionsError(`cannot read config ${configPath}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const res = simConfigFileSchema.safeParse(raw);
    if (!res.success) throw new OptionsError(`config ${configPath}: ${res.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    file = res.data;
  }

  const masterKey = parsed["master-key"] ?? env.SIM_MASTER_KEY;
  const masterSecret = parsed["master-secret"] ?? env.SIM_MASTER_SECRET;
  if (!!masterKey !== !!masterSecret) throw new OptionsError("--master-key and --master-secret go together");
  const master = masterKey && masterSecret ? { ...file.master, apiKey: masterKey, secret: masterSecret } : (file.master ?? null);

  const envSlaves = env.SIM_SLAVES?.split(",").filter((s) => s.trim());
  let slaves = parsed.slave?.length ? parsed.slave.map(parseSlaveSpec) : envSlaves?.length ? envSlaves.map(parseSlaveSpec) : (file.slaves ?? []);
  const count = parsed.slaves ?? env.SIM_SLAVE_COUNT;
  if (count !== undefined && count !== "") {
    const n = number("--slaves", count, 0, (v) => Number.isInteger(v) && v >= 0);
    if (n > slaves.length) throw new OptionsError(`--slaves ${n} but only ${slaves.length} slave key(s) given`);
    slaves = slaves.slice(0, n);
  }
  if (!master && !slaves.length) throw new OptionsError("no credentials: give --master-key/--master-secret and/or --slave (or --config)");

  const url = (parsed.url ?? env.SIM_URL ?? file.url ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+$/.test(url)) throw new OptionsError(`--url must be http(s)://host[:port], got "${url}"`);

  return {
    url,
    master,
    slaves,
    ratePerMin: number("--rate", parsed.rate ?? env.SIM_RATE, 20, nonNegative),
    durationS: number("--duration", parsed.duration ?? env.SIM_DURATION, 0, nonNegative),
    seed: number("--seed", parsed.seed ?? env.SIM_SEED, Math.floor(Math.random() * 2 ** 31), (n) => Number.isInteger(n) && n >= 0),
    quiet: parsed.quiet ?? ["1", "true"].includes(env.SIM_QUIET ?? ""),
    maxPositions: number("--max-positions", parsed["max-positions"], 6, positiveInt),
    maxPending: number("--max-pending", parsed["max-pending"], 3, (n) => Number.isInteger(n) && n >= 0),
    rejectRate: number("--reject-rate", parsed["reject-rate"], 0.05, (n) => n >= 0 && n <= 1),
    tickMs: number("--tick-ms", parsed["tick-ms"], 500, (n) => n >= 10),
    flatten: !parsed["no-flatten"],
    chaos: number("--chaos", parsed.chaos, 0, (n) => n >= 0 && n <= 1),
    stateDir: parsed["state-dir"] ?? env.SIM_STATE_DIR ?? null,
  };
}

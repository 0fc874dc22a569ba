/**
 * Environment → one typed, validated config (fail fast with a readable message).
 * Every variable is documented in README.md § Configuration.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { REQUEST_LOG_MODES, type RequestLogMode } from "./http/request-log.ts";
import { DEFAULT_OUTBOUND_TIMEOUT_MS, parseAllowHosts, type OutboundPolicy } from "./features/outbound/address-policy.ts";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** postgres://… — when set, PostgreSQL replaces the embedded PGlite database. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** 64 hex chars (32 bytes) encrypting API key secrets; generated into DATA_DIR when absent. */
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "SECRET_KEY must be 64 hex characters (32 bytes)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Request lines: `errors` (5xx answers only), `all` (every request, two lines), `off` (server/http/request-log.ts). */
  LOG_REQUESTS: z.enum(REQUEST_LOG_MODES).default("errors"),
  /** Serve the built dashboard from this folder (default web/dist). */
  WEB_DIST: z.string().optional(),
  /** Folder holding MQL4/ and MQL5/ (the Expert Advisors zipped for GET /downloads/copybridge-ea.zip); default terminals. */
  TERMINALS_DIR: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(12 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).default(14),
  /** Set the Secure flag on the session cookie (on automatically behind HTTPS). */
  COOKIE_SECURE: bool,
  /** Trust X-Forwarded-* from a reverse proxy (client address for throttling, https detection). */
  TRUST_PROXY: bool,
  /** Extra origins (comma-separated `scheme://host[:port]`) allowed to drive cookie sessions and /ws besides the server's own. */
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const item of (v ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
        const origin = URL.canParse(item) ? new URL(item).origin : "null";
        if (origin === "null" || origin !== item.replace(/\/$/, "").toLowerCase()) {
          ctx.addIssue({ code: "custom", message: `"${item}" is not an origin like https://copy.example.com` });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
  /** Failed logins per (email, client address) before that pair must wait (the name predates the pairing). */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Window of both failure counts, and how long a client address stays blocked. */
  LOGIN_BLOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  /** First wait of an (email, address) pair past its free failures; doubles with each further failure. */
  LOGIN_DELAY_BASE_SECONDS: z.coerce.number().int().min(1).default(1),
  /** Longest wait of an (email, address) pair. */
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Bridge signature tolerance, seconds (spec §9: ±60). */
  BRIDGE_TS_TOLERANCE_S: z.coerce.number().int().min(1).max(3600).default(60),
  /** Bridge admission (http/admission.ts): requests running at once, all tenants. */
  BRIDGE_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(256),
  /** …and per tenant. */
  BRIDGE_MAX_IN_FLIGHT_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(64),
  /** Requests waiting for a slot, all tenants (each costs memory only: its body is not read yet). */
  BRIDGE_MAX_QUEUED: z.coerce.number().int().min(0).max(100_000).default(4_096),
  /** …of one tenant (500 slave EAs reporting in the same instant queue rather than being shed). */
  BRIDGE_MAX_QUEUED_PER_TENANT: z.coerce.number().int().min(0).max(100_000).default(1_024),
  /** Longest time from arrival until a bridge request must have started, else 503, ms. */
  BRIDGE_QUEUE_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Shed every new bridge request while the event loop's mean delay over the last second exceeds this, ms; 0 = never. */
  BRIDGE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(200),
  /** Retry-After of a shed request (503 overloaded), seconds. */
  BRIDGE_RETRY_AFTER_S: z.coerce.number().int().min(1).max(3600).default(1),
  /** Body limit for JSON requests, bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(256 * 1024),
  /** SMTP server for email alerts, e.g. smtp://user:pass@host:587. */
  SMTP_URL: z.string().optional(),
  ALERT_FROM: z.string().default("CopyBridge Alerts <alerts@copybridge.local>"),
  /** Telegram Bot API base (tests point it at a local server). */
  TELEGRAM_API_URL: z.string().url().default("https://api.telegram.org"),
  /** Hosts (`host` or `host:port`, comma-separated) outgoing calls may reach over plain http: and at private addresses. */
  OUTBOUND_HTTP_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseAllowHosts(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: `${err instanceof Error ? err.message : String(err)}` });
        return z.NEVER;
      }
    }),
  /** Disable background jobs (alert evaluation, retention); tests of a single request path use it. */
  JOBS_DISABLED: bool,
  /** First retry delay of a failed alert delivery, ms (doubles each attempt). */
  ALERT_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2000),
  /** Delivery attempts before an alert notification is recorded as failed. */
  ALERT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** How often the alert monitor checks disconnects and missed trades, ms. */
  ALERT_MONITOR_INTERVAL_MS: z.coerce.number().int().min(50).default(5000),
  /** How often queued alert notifications are looked for (new ones are sent at once anyway), ms. */
  ALERT_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** How long a signal the master closed waits for its slaves' close confirmations before it ends anyway, ms (docs/bridge-protocol.md §5). */
  SIGNAL_CONFIRM_TIMEOUT_MS: z.coerce.number().int().min(1).default(120_000),
  /** How often master-closed signals are checked against that timeout, ms. */
  SIGNAL_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(10_000),
  /** PostgreSQL: how often a waiting slave poll re-checks the database while notifications from other instances flow (the safety net), ms. */
  DELIVERY_SAFETY_NET_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  secretKeyHex: string | undefined;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** Which requests get a log line (LOG_REQUESTS). */
  logRequests: RequestLogMode;
  webDist: string;
  terminalsDir: string;
  sessionIdleMs: number;
  sessionMaxMs: number;
  cookieSecure: boolean;
  trustProxy: boolean;
  /** Origins besides the server's own that may send cookie-authenticated changes and open /ws. */
  allowedOrigins: string[];
  login: {
    /** Free failures per (email, client address) before the growing delay starts. */
    maxFailuresPerAccount: number;
    maxFailuresPerIp: number;
    blockSeconds: number;
    delayBaseSeconds: number;
    delayMaxSeconds: number;
  };
  bridgeTsToleranceS: number;
  /** Bridge admission control (http/admission.ts, README § Configuration). */
  admission: {
    maxInFlight: number;
    maxPerTenant: number;
    maxQueued: number;
    maxQueuedPerTenant: number;
    queueBudgetMs: number;
    maxEventLoopDelayMs: number;
    retryAfterS: number;
  };
  bodyLimitBytes: number;
  smtpUrl: string | undefined;
  alertFrom: string;
  telegramApiUrl: string;
  /** Policy of every outgoing call (alert webhooks, Telegram, SMTP): allow-list and deadline. */
  outbound: OutboundPolicy;
  jobsDisabled: boolean;
  alerts: { retryBaseMs: number; maxAttempts: number; monitorIntervalMs: number; dispatchIntervalMs: number };
  /** Silence timeout of master-closed signals and how often it is checked, ms. */
  signals: { confirmTimeoutMs: number; sweepIntervalMs: number };
  /** PostgreSQL: a parked poll's database re-check while LISTEN/NOTIFY works, ms (1 s otherwise and on PGlite). */
  deliverySafetyNetMs: number;
};

/** Parses `env` (default process.env). Throws an Error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    secretKeyHex: e.SECRET_KEY,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS,
    webDist: resolve(e.WEB_DIST ?? new URL("../web/dist", import.meta.url).pathname),
    terminalsDir: resolve(e.TERMINALS_DIR ?? new URL("../terminals", import.meta.url).pathname),
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.SESSION_MAX_DAYS * 86_400_000,
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
    login: {
      maxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      blockSeconds: e.LOGIN_BLOCK_SECONDS,
      delayBaseSeconds: e.LOGIN_DELAY_BASE_SECONDS,
      delayMaxSeconds: Math.max(e.LOGIN_DELAY_MAX_SECONDS, e.LOGIN_DELAY_BASE_SECONDS),
    },
    bridgeTsToleranceS: e.BRIDGE_TS_TOLERANCE_S,
    admission: {
      maxInFlight: e.BRIDGE_MAX_IN_FLIGHT,
      maxPerTenant: Math.min(e.BRIDGE_MAX_IN_FLIGHT_PER_TENANT, e.BRIDGE_MAX_IN_FLIGHT),
      maxQueued: e.BRIDGE_MAX_QUEUED,
      maxQueuedPerTenant: Math.min(e.BRIDGE_MAX_QUEUED_PER_TENANT, e.BRIDGE_MAX_QUEUED),
      queueBudgetMs: e.BRIDGE_QUEUE_BUDGET_MS,
      maxEventLoopDelayMs: e.BRIDGE_MAX_EVENT_LOOP_DELAY_MS,
      retryAfterS: e.BRIDGE_RETRY_AFTER_S,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    smtpUrl: e.SMTP_URL || undefined,
    alertFrom: e.ALERT_FROM,
    telegramApiUrl: e.TELEGRAM_API_URL.replace(/\/$/, ""),
    outbound: { allowHosts: e.OUTBOUND_HTTP_ALLOW_HOSTS, timeoutMs: DEFAULT_OUTBOUND_TIMEOUT_MS },
    jobsDisabled: e.JOBS_DISABLED,
    alerts: {
      retryBaseMs: e.ALERT_RETRY_BASE_MS,
      maxAttempts: e.ALERT_MAX_ATTEMPTS,
      monitorIntervalMs: e.ALERT_MONITOR_INTERVAL_MS,
      dispatchIntervalMs: e.ALERT_DISPATCH_INTERVAL_MS,
    },
    signals: { confirmTimeoutMs: e.SIGNAL_CONFIRM_TIMEOUT_MS, sweepIntervalMs: e.SIGNAL_SWEEP_INTERVAL_MS },
    deliverySafetyNetMs: e.DELIVERY_SAFETY_NET_MS,
  };
}

/**
 * The fuzz suite's route table: every /api and /v1 route the server registers, with the zod
 * schemas of its input, how it is authenticated and a valid sample input to mutate. e2e/api/fuzz.test.ts
 * fails when the server registers an /api or /v1 route that is not listed here.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  copyPreviewRequestSchema,
  copySettingsRequestSchema,
  createAccountRequestSchema,
  createAlertConfigRequestSchema,
  createApiKeyRequestSchema,
  createSymbolMapRequestSchema,
  eaProfileRequestSchema,
  executionReportSchema,
  executionSummaryQuerySchema,
  executionVerdictsQuerySchema,
  listAccountsQuerySchema,
  listAuditLogsQuerySchema,
  listExecutionsQuerySchema,
  listSignalsQuerySchema,
  loginRequestSchema,
  masterHeartbeatSchema,
  registerRequestSchema,
  retentionRequestSchema,
  riskLimitRequestSchema,
  signalEventSchema,
  slaveHeartbeatSchema,
  slavePollSchema,
  slaveSymbolsSchema,
  snapshotSchema,
  syncRequestSchema,
  tradeExportQuerySchema,
  analyticsQuerySchema,
  updateAccountRequestSchema,
  updateAlertConfigRequestSchema,
  updateApiKeyRequestSchema,
  updateSymbolMapRequestSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  loginTwoFactorRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorDisableRequestSchema,
  inviteMemberRequestSchema,
  updateMemberRequestSchema,
  acceptInvitationRequestSchema,
  updateOrgSettingsRequestSchema,
} from "#contract";
import type { Json } from "./values.ts";
import { SAMPLE_EA_PROFILE } from "../id-routes.ts";

/** Ids of the fixture tenant's resources, created by the suite before fuzzing. */
export interface Fixtures {
  masterId: string;
  slaveId: string;
  symbolMapId: string;
  alertConfigId: string;
  /** A DASHBOARD key the suite may disable and re-enable (never one it signs with). */
  spareKeyId: string;
  /** A real order of the slave (from a copied signal), for execution reports. */
  orderId: string;
  /** Master ticket of an open copied position, and of a pending order (modify/close/cancel samples). */
  masterTicket: string;
  pendingTicket: string;
  email: string;
  password: string;
}

/** How a route is authenticated. */
export type RouteAuth = "none" | "session" | "master" | "slave";

export interface FuzzRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Route pattern as registered, e.g. /api/accounts/:id */
  path: string;
  auth: RouteAuth;
  /** Schema of the JSON body, when the route takes one. */
  body?: z.ZodType;
  /** Schema of the query string, when the route reads one. */
  query?: z.ZodType;
  /** A valid body (fresh on every call: new idempotency keys and timestamps). */
  sample?: (f: Fixtures) => Json;
  /** A valid query string. */
  sampleQuery?: (f: Fixtures) => Record<string, string>;
  /** The fixture naming the `:id` of a route with one. */
  id?: (f: Fixtures) => string;
  /**
   * The real `:id` may be sent with fuzzed bodies (false for DELETE and alert test, which are
   * fuzzed with invalid ids only so the fixture survives and nothing is sent out).
   */
  realIdAllowed?: boolean;
  /** Why a route is fuzzed only lightly, if it is. */
  note?: string;
  /**
   * Refusals of these statuses write an audit entry by design (a failed sign-in is a security
   * event): the audit part of the snapshot may change after them, nothing else.
   */
  auditedRefusals?: number[];
  /** Changes state with any body (emergency actions): fuzzed last, with few requests. */
  last?: boolean;
  /**
   * The status the valid sample gets when a right value is a secret the suite cannot hold (a reset
   * token, a TOTP code, a current password it must not change): the answer must be this semantic
   * refusal, proving the sample passed validation. Default: any 2xx.
   */
  sampleStatus?: number;
}

const nowS = () => Math.floor(Date.now() / 1000);
let seq = 0;
const next = () => `${Date.now().toString(36)}-${(seq += 1)}`;

function signalBody(type: string, ticket: number): Json {
  return {
    id: `evt-${next()}`,
    type,
    ts: nowS(),
    master: { login: "50001234", alias: "Main", magic: 777, server: "ICMarkets-Demo" },
    order: { ticket, symbol: "EURUSD", side: "BUY", orderType: type.startsWith("PENDING") ? "LIMIT" : "MARKET", volume: 1, price: 1.08456, sl: 1.08, tp: 1.09, comment: "fuzz" },
    risk: { atr: 0.0011, slDistancePts: 456 },
    idempotencyKey: `idem-fuzz-${next()}`,
  };
}

const snapshot = (): Json => ({
  ts: nowS(),
  nonce: next(),
  positions: [{ ticket: 1, symbol: "EURUSD", side: "BUY", volume: 0.1, openPrice: 1.1, sl: null, tp: null, openTime: nowS() - 60, magic: 1, comment: "c" }],
  orders: [{ ticket: 2, symbol: "EURUSD", side: "SELL", orderType: "LIMIT", volume: 0.1, price: 1.2, stopLimitPrice: null, sl: null, tp: null, magic: 1, comment: "c" }],
});

const spec = (symbol: string): Json => ({
  symbol, digits: 5, point: 0.00001, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, contractSize: 100000, tickSize: 0.00001, tickValue: 1, tradeMode: "full", stopsLevel: 0,
});

/** Every /api and /v1 route of the server. */
export const FUZZ_ROUTES: FuzzRoute[] = [
  // ---------------------------------------------------------------- auth
  {
    method: "POST", path: "/api/auth/register", auth: "none", body: registerRequestSchema,
    sample: () => {
      const s = next();
      return { email: `fuzz-${s}@example.com`, password: "correct horse battery", confirmPassword: "correct horse battery", firstName: "F", lastName: "Z", tenantName: `Fuzz ${s}`, tenantSlug: `fuzz-${s}` };
    },
  },
    { method: "POST", path: "/api/auth/login", auth: "none", body: loginRequestSchema, sample: (f) => ({ email: f.email, password: f.password }), auditedRefusals: [401, 429] },
  { method: "GET", path: "/api/auth/me", auth: "session" },
  { method: "POST", path: "/api/auth/logout", auth: "none", note: "fuzzed without the fixture's session (it would end it)" },
  // Password reset and two-factor sign-in (issue 16)
  { method: "GET", path: "/api/auth/capabilities", auth: "none" },
  { method: "POST", path: "/api/auth/forgot-password", auth: "none", body: forgotPasswordRequestSchema, sample: () => ({ email: `nobody-${next()}@example.com` }) },
  { method: "POST", path: "/api/auth/reset-password", auth: "none", body: resetPasswordRequestSchema, sample: () => ({ token: "x".repeat(43), password: "fuzz password 1", confirmPassword: "fuzz password 1" }), sampleStatus: 400 },
  { method: "POST", path: "/api/auth/login/two-factor", auth: "none", body: loginTwoFactorRequestSchema, sample: () => ({ challenge: "x".repeat(43), code: "123456" }), sampleStatus: 401 },
  {
    method: "POST", path: "/api/auth/password", auth: "session", body: changePasswordRequestSchema,
    sample: () => ({ currentPassword: "not the fixture password", newPassword: "fuzz password 1", confirmPassword: "fuzz password 1" }),
    note: "the sample's current password is wrong on purpose (a right one would change the fixture's password)",
    sampleStatus: 400,
  },
  { method: "POST", path: "/api/auth/two-factor/setup", auth: "session" },
  { method: "POST", path: "/api/auth/two-factor/enable", auth: "session", body: twoFactorEnableRequestSchema, sample: () => ({ code: "000000" }), sampleStatus: 409 },
  { method: "POST", path: "/api/auth/two-factor/disable", auth: "session", body: twoFactorDisableRequestSchema, sample: (f) => ({ password: f.password, code: "000000" }), sampleStatus: 409 },
  // ---------------------------------------------------------------- members and invitations (issue 16)
  { method: "GET", path: "/api/members", auth: "session" },
  { method: "POST", path: "/api/members/invitations", auth: "session", body: inviteMemberRequestSchema, sample: () => ({ email: `invitee-${next()}@example.com`, role: "viewer" }) },
  { method: "DELETE", path: "/api/members/invitations/:id", auth: "session", id: (f) => f.slaveId, realIdAllowed: false },
  { method: "PATCH", path: "/api/members/:id", auth: "session", body: updateMemberRequestSchema, id: (f) => f.slaveId, realIdAllowed: false, sample: () => ({ role: "viewer" }), note: "invalid ids only: the fixture's one member is its owner" },
  { method: "DELETE", path: "/api/members/:id", auth: "session", id: (f) => f.slaveId, realIdAllowed: false },
  { method: "GET", path: "/api/invitations/:token", auth: "none", id: () => "x".repeat(43), realIdAllowed: true },
  {
    method: "POST", path: "/api/invitations/accept", auth: "none", body: acceptInvitationRequestSchema,
    sample: () => ({ token: "x".repeat(43), firstName: "F", lastName: "Z", password: "fuzz password 1", confirmPassword: "fuzz password 1" }),
    sampleStatus: 404,
  },
  // ---------------------------------------------------------------- organisation settings and the desk overview (issue 16)
  { method: "GET", path: "/api/settings", auth: "session" },
  {
    method: "PUT", path: "/api/settings", auth: "session", body: updateOrgSettingsRequestSchema,
    sample: () => ({ apiTimeout: 5000, retryAttempts: 3, telegramChatId: "", alertEmails: [], errorAlerts: true, tradeAlerts: false, dailyReports: true }),
  },
  { method: "GET", path: "/api/overview", auth: "session" },
  // ---------------------------------------------------------------- documentation (issue 16, public)
  { method: "GET", path: "/api/openapi.json", auth: "none" },
  // ---------------------------------------------------------------- accounts
  { method: "GET", path: "/api/accounts", auth: "session", query: listAccountsQuerySchema, sampleQuery: () => ({ includeDeleted: "true" }) },
  { method: "GET", path: "/api/accounts/master", auth: "session" },
  { method: "GET", path: "/api/accounts/slaves", auth: "session" },
  { method: "GET", path: "/api/accounts/:id", auth: "session", id: (f) => f.slaveId, realIdAllowed: true },
  { method: "GET", path: "/api/accounts/:id/symbol-specs", auth: "session", id: (f) => f.slaveId, realIdAllowed: true },
  // Protection: the fixture slave is not close-only, so the real id answers 409 and changes nothing.
  { method: "POST", path: "/api/accounts/:id/resume-copying", auth: "session", id: (f) => f.slaveId, realIdAllowed: true },
  { method: "GET", path: "/api/accounts/:id/snapshot", auth: "session", id: (f) => f.slaveId, realIdAllowed: true },
  // Reconciliation (docs/bridge-protocol.md §10): a dry run changes nothing; an apply with a stale planId is 409.
  { method: "GET", path: "/api/accounts/:id/sync", auth: "session", id: (f) => f.slaveId, realIdAllowed: true },
  { method: "POST", path: "/api/accounts/:id/sync", auth: "session", body: syncRequestSchema, id: (f) => f.slaveId, realIdAllowed: true, sample: () => ({ dryRun: true }) },
  { method: "GET", path: "/api/sync", auth: "session" },
  {
    method: "POST", path: "/api/accounts", auth: "session", body: createAccountRequestSchema,
    sample: () => ({ accountNumber: String(80000 + (seq += 1)), alias: "Fuzz", broker: "Fuzz Broker", platform: "MT4", role: "SLAVE", status: "active", currency: "USD" }),
  },
  {
    method: "PUT", path: "/api/accounts/:id", auth: "session", body: updateAccountRequestSchema, id: (f) => f.slaveId, realIdAllowed: true,
    sample: () => ({ alias: "Fuzzed", status: "active" }),
  },
  { method: "DELETE", path: "/api/accounts/:id", auth: "session", id: (f) => f.slaveId, realIdAllowed: false },
  { method: "PUT", path: "/api/accounts/:id/settings", auth: "session", body: eaProfileRequestSchema, id: (f) => f.slaveId, realIdAllowed: true, sample: () => ({ ...SAMPLE_EA_PROFILE }) },
  // ---------------------------------------------------------------- emergency (state-changing without a body: last)
  { method: "POST", path: "/api/emergency/pause-all", auth: "session", last: true },
  { method: "POST", path: "/api/emergency/panic-stop", auth: "session", last: true },
  { method: "POST", path: "/api/emergency/close-all", auth: "session", last: true },
  // Resume copying: 409 while not paused; after pause-all it resumes (state-changing: last).
  { method: "POST", path: "/api/emergency/resume", auth: "session", last: true },
  { method: "GET", path: "/api/emergency/status", auth: "session" },
  // ---------------------------------------------------------------- audit
  { method: "GET", path: "/api/audit-logs", auth: "session", query: listAuditLogsQuerySchema, sampleQuery: () => ({ level: "info", limit: "10" }) },
  { method: "GET", path: "/api/audit-logs/export", auth: "session", query: listAuditLogsQuerySchema, sampleQuery: () => ({ format: "json", level: "info" }) },
  // ---------------------------------------------------------------- api keys
  { method: "GET", path: "/api/bridge/api-keys", auth: "session" },
  { method: "POST", path: "/api/bridge/api-keys", auth: "session", body: createApiKeyRequestSchema, sample: (f) => ({ name: `fuzz ${next()}`, scope: "SLAVE", accountId: f.slaveId }) },
  { method: "PATCH", path: "/api/bridge/api-keys/:id", auth: "session", body: updateApiKeyRequestSchema, id: (f) => f.spareKeyId, realIdAllowed: true, sample: () => ({ enabled: true }) },
  { method: "DELETE", path: "/api/bridge/api-keys/:id", auth: "session", id: (f) => f.spareKeyId, realIdAllowed: false },
  // ---------------------------------------------------------------- symbol maps
  { method: "GET", path: "/api/symbol-maps", auth: "session" },
  {
    method: "POST", path: "/api/symbol-maps", auth: "session", body: createSymbolMapRequestSchema,
    sample: (f) => ({ masterSymbol: `M${(seq += 1)}`, slaveSymbol: "EURUSD.a", slaveAccountId: f.slaveId, lotMultiplier: 1, enabled: true }),
  },
  { method: "PUT", path: "/api/symbol-maps/:id", auth: "session", body: updateSymbolMapRequestSchema, id: (f) => f.symbolMapId, realIdAllowed: true, sample: () => ({ lotMultiplier: 1, enabled: true }) },
  { method: "DELETE", path: "/api/symbol-maps/:id", auth: "session", id: (f) => f.symbolMapId, realIdAllowed: false },
  // ---------------------------------------------------------------- risk
  { method: "GET", path: "/api/risk-limits", auth: "session" },
  {
    method: "POST", path: "/api/risk-limits", auth: "session", body: riskLimitRequestSchema,
    sample: (f) => ({ accountId: f.slaveId, scope: "account", targetId: f.slaveId, maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true }),
  },
  // ---------------------------------------------------------------- copy settings
  { method: "GET", path: "/api/copy-settings", auth: "session" },
  {
    method: "PUT", path: "/api/copy-settings/:slaveAccountId", auth: "session", body: copySettingsRequestSchema, id: (f) => f.slaveId, realIdAllowed: true,
    sample: () => ({
      sizing: { mode: "risk_percent", fixedVolume: null, riskPercent: "1" }, minVolume: "0.01", maxVolume: "5", tooSmall: "skip", reverse: false, copyStopLoss: true,
      copyTakeProfit: true, allowedSides: "both", magic: { include: ["100-200"], exclude: ["7"] }, skipPendingOrders: false, signalLifetimeSeconds: 60,
      closePositionsOnStop: false, dailyProfitTargetPct: null,
    }),
  },
  // ---------------------------------------------------------------- signals, stats, analytics
  { method: "GET", path: "/api/signals", auth: "session", query: listSignalsQuerySchema, sampleQuery: () => ({ status: "active", limit: "10" }) },
  { method: "GET", path: "/api/executions", auth: "session", query: listExecutionsQuerySchema, sampleQuery: (f) => ({ accountId: f.slaveId, limit: "10" }) },
  { method: "GET", path: "/api/executions/summary", auth: "session", query: executionSummaryQuerySchema, sampleQuery: (f) => ({ accountId: f.slaveId }) },
  { method: "GET", path: "/api/executions/verdicts", auth: "session", query: executionVerdictsQuerySchema, sampleQuery: () => ({ since: "2026-01-01T00:00:00Z" }) },
  { method: "GET", path: "/api/bridge/stats", auth: "session" },
  // ---------------------------------------------------------------- retention
  { method: "GET", path: "/api/retention", auth: "session" },
  { method: "PUT", path: "/api/retention", auth: "session", body: retentionRequestSchema, sample: () => ({ closedTradesDays: 400, auditDays: 365 }) },
  { method: "GET", path: "/api/signals/export", auth: "session", query: tradeExportQuerySchema, sampleQuery: () => ({ format: "json", from: "2026-01-01T00:00:00Z" }) },
  { method: "GET", path: "/api/analytics/performance", auth: "session", query: analyticsQuerySchema, sampleQuery: (f) => ({ range: "24h", accountId: f.slaveId }) },
  { method: "GET", path: "/api/analytics/latency", auth: "session", query: analyticsQuerySchema, sampleQuery: (f) => ({ range: "7d", accountId: f.slaveId }) },
  { method: "GET", path: "/api/analytics/latency/hops", auth: "session", query: analyticsQuerySchema, sampleQuery: (f) => ({ range: "24h", accountId: f.slaveId }) },
  { method: "GET", path: "/api/analytics/slippage", auth: "session", query: analyticsQuerySchema, sampleQuery: () => ({ range: "30d" }) },
  // ---------------------------------------------------------------- copy preview (writes nothing)
  { method: "POST", path: "/api/copy/preview", auth: "session", body: copyPreviewRequestSchema, sample: () => signalBody("OPEN", 9_500_000 + (seq += 1)) },
  // ---------------------------------------------------------------- alerts
  { method: "GET", path: "/api/alerts/configs", auth: "session" },
  {
    method: "POST", path: "/api/alerts/configs", auth: "session", body: createAlertConfigRequestSchema,
    sample: () => ({ name: `fuzz ${next()}`, type: "copy_failure", enabled: true, thresholds: { latencyThreshold: 500 }, channels: { telegram: { chatId: "1", botToken: "t" } }, rateLimit: 60 }),
  },
  {
    method: "PUT", path: "/api/alerts/configs/:id", auth: "session", body: updateAlertConfigRequestSchema, id: (f) => f.alertConfigId, realIdAllowed: true,
    sample: () => ({ enabled: false, thresholds: { slippageThreshold: 5 } }),
  },
  { method: "DELETE", path: "/api/alerts/configs/:id", auth: "session", id: (f) => f.alertConfigId, realIdAllowed: false },
  { method: "POST", path: "/api/alerts/configs/:id/test", auth: "session", id: (f) => f.alertConfigId, realIdAllowed: false, note: "invalid ids only: a real test sends out" },
  // ---------------------------------------------------------------- /v1 master
  {
    method: "POST", path: "/v1/master/heartbeat", auth: "master", body: masterHeartbeatSchema,
    sample: () => ({ login: "50001234", server: "ICMarkets-Demo", balance: "10000.00", equity: "10010.50", currency: "USD", margin: "100", freeMargin: "9900", leverage: 500, marginMode: "hedging", brokerUtcOffsetSec: 7200, ts: nowS(), nonce: next() }),
  },
  { method: "POST", path: "/v1/master/snapshot", auth: "master", body: snapshotSchema, sample: snapshot },
  { method: "POST", path: "/v1/master/signal/open", auth: "master", body: signalEventSchema, sample: () => signalBody("OPEN", 9_000_000 + (seq += 1)) },
  { method: "POST", path: "/v1/master/signal/modify", auth: "master", body: signalEventSchema, sample: (f) => signalBody("MODIFY", Number(f.masterTicket)) },
  { method: "POST", path: "/v1/master/signal/close", auth: "master", body: signalEventSchema, sample: (f) => signalBody("CLOSE", Number(f.masterTicket)) },
  { method: "POST", path: "/v1/master/signal/pending/open", auth: "master", body: signalEventSchema, sample: () => signalBody("PENDING_OPEN", 9_000_000 + (seq += 1)) },
  { method: "POST", path: "/v1/master/signal/pending/modify", auth: "master", body: signalEventSchema, sample: (f) => signalBody("PENDING_MODIFY", Number(f.pendingTicket)) },
  { method: "POST", path: "/v1/master/signal/pending/cancel", auth: "master", body: signalEventSchema, sample: (f) => signalBody("PENDING_CANCEL", Number(f.pendingTicket)) },
  // ---------------------------------------------------------------- /v1 slave
  {
    method: "POST", path: "/v1/slave/heartbeat", auth: "slave", body: slaveHeartbeatSchema,
    sample: () => ({ accountNumber: "7001", login: "7001", server: "Pepperstone-Demo", balance: "5000", equity: "5000", currency: "USD", status: "active", leverage: 100, ts: nowS(), nonce: next() }),
  },
  // waitMs is forced to 0 by the generator: a valid long-poll would park for up to 25 s.
  { method: "POST", path: "/v1/slave/orders/poll", auth: "slave", body: slavePollSchema, sample: () => ({ waitMs: 0, limit: 10, redeliver: false, nonce: next() }) },
  {
    method: "POST", path: "/v1/slave/execution/report", auth: "slave", body: executionReportSchema,
    sample: (f) => ({ orderId: f.orderId, status: "filled", slaveTicket: "123456", fillPrice: 1.0846, volume: 1, fillTime: nowS(), point: 0.00001, profit: null, errorCode: null, errorMessage: null, ts: nowS(), nonce: next() }),
  },
  { method: "POST", path: "/v1/slave/symbols", auth: "slave", body: slaveSymbolsSchema, sample: () => ({ nonce: next(), symbols: [spec("EURUSD"), spec("GBPUSD")] }) },
  { method: "POST", path: "/v1/slave/snapshot", auth: "slave", body: snapshotSchema, sample: snapshot },
  { method: "GET", path: "/v1/slave/stream", auth: "slave", note: "WebSocket upgrade: fuzzed as plain signed GETs with hostile headers and queries" },
];

/** A random uuid that names nothing. */
export const unknownId = (): string => randomUUID();

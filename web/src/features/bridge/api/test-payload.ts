/**
 * Testing tab payloads — spec §2 /bridge Testing, §3 sample signal event, §5 (the test payload
 * must parse as JSON; otherwise nothing is sent). The editor holds one sample signal; each
 * button derives the exact body it sends from it.
 */
import type { MasterHeartbeat, SignalEventInput } from "#contract";

export type TestSignalType = "OPEN" | "MODIFY" | "CLOSE";
export const TEST_SIGNAL_TYPES: readonly TestSignalType[] = ["OPEN", "MODIFY", "CLOSE"];

export const HEARTBEAT_PATH = "/v1/master/heartbeat";
export const SIGNAL_PATHS: Record<TestSignalType, string> = {
  OPEN: "/v1/master/signal/open",
  MODIFY: "/v1/master/signal/modify",
  CLOSE: "/v1/master/signal/close",
};

/** A request the Testing tab will sign and POST: `body` is the exact text sent and signed. */
export interface TestRequest {
  path: string;
  body: string;
}

/** §3 sample signal event; `ticket` varies so a fresh sample does not repeat yesterday's keys. */
export function sampleSignal(nowSeconds: number, ticket: number): SignalEventInput {
  return {
    id: `evt-${ticket}`,
    type: "OPEN",
    ts: nowSeconds,
    master: { login: "50001234", alias: "Main", magic: 20241121, server: "ICMarkets-Demo" },
    order: {
      ticket,
      symbol: "EURUSD",
      side: "BUY",
      orderType: "MARKET",
      volume: "0.50",
      price: "1.08456",
      sl: "1.08000",
      tp: "1.09500",
      comment: "breakout",
    },
    risk: { atr: "0.00110", slDistancePts: 456 },
    idempotencyKey: `50001234-${ticket}`,
  };
}

/** The editor's initial text: the sample, indented. */
export function sampleSignalText(nowSeconds: number, ticket: number): string {
  return JSON.stringify(sampleSignal(nowSeconds, ticket), null, 2);
}

type JsonObject = Record<string, unknown>;

function parseObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/**
 * Heartbeat from the editor's `master`: {login, server, balance "10000.00", equity "10000.00",
 * currency "USD"}. Null when the editor is not a JSON object with a master login.
 */
export function buildHeartbeatRequest(editorText: string): TestRequest | null {
  const signal = parseObject(editorText);
  const master = signal?.master;
  if (!master || typeof master !== "object" || Array.isArray(master)) return null;
  const { login, server } = master as JsonObject;
  if (typeof login !== "string" && typeof login !== "number") return null;
  const heartbeat: MasterHeartbeat = {
    login,
    server: typeof server === "string" ? server : "",
    balance: "10000.00",
    equity: "10000.00",
    currency: "USD",
  };
  return { path: HEARTBEAT_PATH, body: JSON.stringify(heartbeat) };
}

/**
 * The editor's signal as `type`: `ts` set to now and the idempotency key suffixed with the
 * type ("…-open"), so repeating a button is idempotent (the server answers the first response
 * again). Null when the editor is not a JSON object.
 */
export function buildSignalRequest(editorText: string, type: TestSignalType, nowSeconds: number): TestRequest | null {
  const signal = parseObject(editorText);
  if (!signal) return null;
  const body: JsonObject = { ...signal, type, ts: nowSeconds };
  if (typeof signal.idempotencyKey === "string") body.idempotencyKey = `${signal.idempotencyKey}-${type.toLowerCase()}`;
  return { path: SIGNAL_PATHS[type], body: JSON.stringify(body) };
}

/**
 * Remembers the body first sent for each (type, editor text), so pressing a button again with an
 * unchanged editor resends the identical bytes — a retry in protocol terms (§4.2 idempotency):
 * the server answers the first response again instead of 422 for a different `ts`.
 */
export function createSignalRequestCache() {
  const sent = new Map<string, TestRequest>();
  return (editorText: string, type: TestSignalType, nowSeconds: number): TestRequest | null => {
    const key = `${type}\n${editorText}`;
    const cached = sent.get(key);
    if (cached) return cached;
    const request = buildSignalRequest(editorText, type, nowSeconds);
    if (request) sent.set(key, request);
    return request;
  };
}

/**
 * A terminal-side client of the signed bridge protocol, used by the simulator, the benchmark and
 * the integration tests. Speaks only HTTP (keep-alive) — no shortcut into the server.
 */
import { randomBytes } from "node:crypto";
import { Agent, request } from "undici";
import type {
  ExecutionReportInput,
  ExecutionReportResponse,
  HeartbeatResponse,
  MasterHeartbeat,
  SignalAccepted,
  SignalEventInput,
  SlaveHeartbeat,
  SlaveHeartbeatResponse,
  SlavePollInput,
  SlavePollResponse,
  SlaveSymbolsInput,
  SlaveSymbolsResponse,
  SnapshotInput,
  SnapshotResponse,
} from "#contract";
import { signedHeaders } from "./sign.ts";

export interface BridgeCredentials {
  apiKey: string;
  secret: string;
}

export interface BridgeResponse<T> {
  status: number;
  body: T;
  /** The answer's Retry-After, seconds (a 503 `overloaded` carries one), when present. */
  retryAfterS?: number;
}

export class BridgeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    path: string,
    /** Retry-After of the answer, seconds, when it had one (503 `overloaded`). */
    readonly retryAfterS?: number,
  ) {
    super(`${path} answered ${status}: ${JSON.stringify(body)}`);
  }
}

const SIGNAL_PATHS = {
  OPEN: "/v1/master/signal/open",
  MODIFY: "/v1/master/signal/modify",
  CLOSE: "/v1/master/signal/close",
  PENDING_OPEN: "/v1/master/signal/pending/open",
  PENDING_MODIFY: "/v1/master/signal/pending/modify",
  PENDING_CANCEL: "/v1/master/signal/pending/cancel",
} as const;

/** Longest pause honoured from a Retry-After, ms (the EAs cap it the same way: terminals/MQL5/Include/CopyBridge/Http.mqh). */
const MAX_RETRY_PAUSE_MS = 5_000;

export interface BridgeClientOptions {
  /** Keep-alive connections to the server (default 4). */
  connections?: number;
  /**
   * How many times a `503 overloaded` (shed before any work, docs/bridge-protocol.md §3) is sent
   * again after its Retry-After, re-signed, as the EAs do (default 8). 0: hand every 503 to the
   * caller (benchmarks counting sheds, tests of shedding).
   */
  retryOverloaded?: number;
}

export class BridgeClient {
  private readonly agent: Agent;
  private readonly retryOverloaded: number;

  constructor(
    readonly baseUrl: string,
    readonly creds: BridgeCredentials,
    opts: BridgeClientOptions = {},
  ) {
    this.agent = new Agent({ connections: opts.connections ?? 4, keepAliveTimeout: 30_000, bodyTimeout: 60_000, headersTimeout: 60_000 });
    this.retryOverloaded = opts.retryOverloaded ?? 8;
  }

  /**
   * Signs and POSTs `body` (serialised once; the same bytes are signed and sent). A 503 with
   * Retry-After is sent again (same bytes, signed anew) up to `retryOverloaded` times.
   */
  async post<T>(path: string, body: unknown, ts?: number): Promise<BridgeResponse<T>> {
    const text = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      const res = await this.send<T>(path, text, ts);
      if (res.status !== 503 || res.retryAfterS === undefined || attempt >= this.retryOverloaded) return res;
      await new Promise((r) => setTimeout(r, Math.min(res.retryAfterS! * 1000, MAX_RETRY_PAUSE_MS)));
    }
  }

  private async send<T>(path: string, text: string, ts?: number): Promise<BridgeResponse<T>> {
    const res = await request(this.baseUrl + path, {
      method: "POST",
      dispatcher: this.agent,
      headers: { "content-type": "application/json", ...signedHeaders(this.creds.apiKey, this.creds.secret, "POST", path, text, ts) },
      body: text,
    });
    const raw = await res.body.text();
    const retryAfter = Number(res.headers["retry-after"]);
    return { status: res.statusCode, body: (raw ? JSON.parse(raw) : null) as T, ...(Number.isFinite(retryAfter) ? { retryAfterS: retryAfter } : {}) };
  }

  /** Like post() but throws BridgeHttpError on a non-2xx answer. */
  async postOk<T>(path: string, body: unknown): Promise<T> {
    const res = await this.post<T>(path, body);
    if (res.status < 200 || res.status > 299) throw new BridgeHttpError(res.status, res.body, path, res.retryAfterS);
    return res.body;
  }

  masterHeartbeat(body: MasterHeartbeat) {
    return this.postOk<HeartbeatResponse>("/v1/master/heartbeat", withNonce(body));
  }

  /** Sends a master signal event to the endpoint of its `type`. */
  signal(event: SignalEventInput) {
    return this.post<SignalAccepted>(SIGNAL_PATHS[event.type], event);
  }

  slaveHeartbeat(body: SlaveHeartbeat) {
    return this.postOk<SlaveHeartbeatResponse>("/v1/slave/heartbeat", withNonce(body));
  }

  poll(body: SlavePollInput) {
    return this.postOk<SlavePollResponse>("/v1/slave/orders/poll", withNonce(body));
  }

  report(body: ExecutionReportInput) {
    return this.postOk<ExecutionReportResponse>("/v1/slave/execution/report", withNonce(body));
  }

  /** POST /v1/slave/symbols: the slave broker's specs of 1–200 symbols. */
  symbols(body: SlaveSymbolsInput) {
    return this.postOk<SlaveSymbolsResponse>("/v1/slave/symbols", withNonce(body));
  }

  /** POST /v1/master/snapshot or /v1/slave/snapshot: every open position and pending order. */
  snapshot(role: "master" | "slave", body: SnapshotInput) {
    return this.postOk<SnapshotResponse>(`/v1/${role}/snapshot`, withNonce(body));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Closes at once, aborting requests in flight (e.g. parked long-polls). */
  async destroy(): Promise<void> {
    await this.agent.destroy();
  }
}

/**
 * Non-signal requests are replay-protected by signature, so two identical bodies in one second
 * would collide: give each a nonce unless the caller chose one (docs/bridge-protocol.md §2).
 */
function withNonce<T extends { nonce?: string | undefined }>(body: T): T {
  return body.nonce ? body : { ...body, nonce: randomBytes(6).toString("hex") };
}

export { SIGNAL_PATHS };

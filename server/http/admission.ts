/**
 * Admission control of the /v1 bridge (issue 15, goal 5; docs/bridge-protocol.md §3 "Overload").
 * In the first hook (onRequest, before the body is read or parsed) every bridge request:
 *
 * 1. gets its arrival time (`request.arrivedAtMs`), against which its signed `x-ts` is checked
 *    later (features/bridge/signed-request.ts), so time spent waiting inside the server never
 *    turns a fresh request into a 401;
 * 2. is shed at once while the event loop's mean delay over the last second exceeds
 *    `maxEventLoopDelayMs` (taking more work then only makes everything later) — except a master
 *    signal while fewer than `MASTER_PRIORITY_SLOTS` of them run: the master's event is what every
 *    copy waits for, and the lag is mostly the slaves' polls and reports of earlier events (one
 *    shed signal held 500 slaves' orders back by its Retry-After);
 * 3. takes a slot of its lane (http/admission-limiter.ts): bounded in flight overall and per
 *    tenant, bounded waiting, and a wait budget counted from arrival. A request that gets no slot
 *    is answered 503 `overloaded` with `Retry-After` and was never processed: the EA's retry (same
 *    body, idempotency key) is safe, and nothing acknowledged is lost.
 *
 * Heartbeats have a small lane of their own, so a master's burst of signals cannot starve them.
 * A long-poll or stream gives its slot back once it parks (`releaseAdmission`): a parked poll does
 * no work and would otherwise starve everyone. The tenant of a request is known before the body
 * only through its `x-api-key`: each key's tenant is learned from its first verified request;
 * keys not verified yet share one lane, so made-up keys cannot crowd out real tenants.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import { AdmissionLimiter, Shed, type ShedReason, type Ticket } from "./admission-limiter.ts";
import { AppError } from "./errors.ts";
import { delayBeyondIntervalMs } from "./loop-delay.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** When the request reached the first hook, ms since the epoch (0 outside /v1). */
    arrivedAtMs: number;
    /** The admission slot this request holds, released when it is answered or parks. */
    admissionTicket: Ticket | null;
  }
}

export type AdmissionSettings = Config["admission"];

/** Routes answered from the heartbeat lane. */
const HEARTBEAT_ROUTES = new Set(["/v1/master/heartbeat", "/v1/slave/heartbeat"]);
/** The heartbeat lane's share of the limits (its own slots, beside the work lane's). */
const HEARTBEAT_SHARE = 8;
/** Routes of master signals (features/bridge/master-routes.ts). */
const MASTER_SIGNAL_PREFIX = "/v1/master/signal/";
/**
 * Master signals that may run at once while the event loop lags (each still takes its lane's slot,
 * so the per-tenant and overall bounds hold); beyond these, signals are shed like everything else.
 */
export const MASTER_PRIORITY_SLOTS = 2;
/** The lane of keys whose tenant is not known yet (no verified request since start). */
export const UNVERIFIED = "?unverified";
/** Keys remembered with their tenant; beyond this the memory starts over (only verified keys enter). */
const MAX_KNOWN_KEYS = 100_000;
/** How often the event-loop delay is read, and sheds are logged at most, ms. */
const SAMPLE_MS = 1_000;
const REPORT_MS = 1_000;

/**
 * The gauge's timer interval, ms; the gauge reads the delay beyond it (http/loop-delay.ts: each
 * sample includes the interval). 50, not the default 10: the timer wakes the
 * process on every interval, and at 10 ms that alone cost 0.4–0.5 % of a core on an idle server
 * (measured here: a bare Node process with the histogram enabled, 20 s); a stall still shows in
 * full in the sample that follows it.
 */
const GAUGE_RESOLUTION_MS = 50;

/**
 * The event loop's recent delay: the MEAN delay of its turns over the last `SAMPLE_MS` window, ms,
 * beyond the gauge's own timer interval. The mean, not a high percentile: one slow statement (a
 * big PGlite query, a GC pause) shows in the maximum but barely in the mean, while a loop that is
 * late on every turn — or stalled for seconds, which is one huge sample — raises it. Shedding
 * should follow the second, not the first.
 */
class EventLoopGauge {
  private readonly histogram = monitorEventLoopDelay({ resolution: GAUGE_RESOLUTION_MS });
  private timer: NodeJS.Timeout | null = null;
  delayMs = 0;

  /** Starts measuring (once the server is ready: start-up work is not overload). */
  start(): void {
    if (this.timer) return;
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.delayMs = delayBeyondIntervalMs(this.histogram.mean, GAUGE_RESOLUTION_MS);
      this.histogram.reset();
    }, SAMPLE_MS).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.histogram.disable();
  }
}

export interface AdmissionStats {
  inFlight: number;
  queued: number;
  eventLoopDelayMs: number;
  /** Requests refused since start, by reason. */
  shed: Record<ShedReason, number>;
}

/** The bridge's admission state: two lanes, the key → tenant memory, the event-loop gauge, counters. */
export class BridgeAdmission {
  readonly work: AdmissionLimiter;
  readonly heartbeats: AdmissionLimiter;
  private readonly tenantOfKey = new Map<string, string>();
  private readonly gauge = new EventLoopGauge();
  readonly shed: Record<ShedReason, number> = { queue_full: 0, budget: 0, event_loop: 0 };

  constructor(readonly settings: AdmissionSettings) {
    const { maxInFlight, maxPerTenant, maxQueued, maxQueuedPerTenant } = settings;
    this.work = new AdmissionLimiter({ maxInFlight, maxPerTenant, maxQueued, maxQueuedPerTenant });
    const share = (n: number) => Math.max(1, Math.ceil(n / HEARTBEAT_SHARE));
    this.heartbeats = new AdmissionLimiter({ maxInFlight: share(maxInFlight), maxPerTenant: share(maxPerTenant), maxQueued: share(maxQueued) });
  }

  /** Master signals admitted past a lagging event loop and not answered yet (≤ MASTER_PRIORITY_SLOTS). */
  private priorityInFlight = 0;

  /** Test hook: a fixed event-loop delay instead of the measured one, ms (null: measured). */
  eventLoopDelayOverrideMs: number | null = null;

  /** The event-loop delay admission currently sees, ms. */
  get eventLoopDelayMs(): number {
    return this.eventLoopDelayOverrideMs ?? this.gauge.delayMs;
  }

  /**
   * A slot for a request of `apiKey` on `route` that arrived at `arrivedAtMs`; throws 503
   * `overloaded` (with Retry-After) when it is shed.
   */
  async admit(route: string, apiKey: string | undefined, arrivedAtMs: number, now = Date.now()): Promise<Ticket> {
    const { maxEventLoopDelayMs, queueBudgetMs } = this.settings;
    let priority = false;
    try {
      if (maxEventLoopDelayMs > 0 && this.eventLoopDelayMs > maxEventLoopDelayMs) {
        if (!route.startsWith(MASTER_SIGNAL_PREFIX) || this.priorityInFlight >= MASTER_PRIORITY_SLOTS) throw new Shed("event_loop");
        // Counted before the wait for a slot, so signals arriving together cannot all pass the check.
        priority = true;
        this.priorityInFlight += 1;
      }
      const lane = HEARTBEAT_ROUTES.has(route) ? this.heartbeats : this.work;
      const tenant = (apiKey !== undefined ? this.tenantOfKey.get(apiKey) : undefined) ?? UNVERIFIED;
      const ticket = await lane.acquire(tenant, queueBudgetMs - (now - arrivedAtMs));
      if (!priority) return ticket;
      let held = true;
      return {
        release: () => {
          if (!held) return;
          held = false;
          this.priorityInFlight -= 1;
          ticket.release();
        },
      };
    } catch (err) {
      if (priority) this.priorityInFlight -= 1;
      if (!(err instanceof Shed)) throw err;
      this.shed[err.reason] += 1;
      throw new AppError("overloaded", "The bridge is overloaded: nothing was processed, retry after the pause in Retry-After", {
        headers: { "retry-after": String(this.settings.retryAfterS) },
      });
    }
  }

  /** Remembers the tenant of a key that passed verification (its later requests use that tenant's lane). */
  learn(apiKey: string, tenantId: string): void {
    if (this.tenantOfKey.get(apiKey) === tenantId) return;
    if (this.tenantOfKey.size >= MAX_KNOWN_KEYS) this.tenantOfKey.clear();
    this.tenantOfKey.set(apiKey, tenantId);
  }

  stats(): AdmissionStats {
    const w = this.work.stats();
    const h = this.heartbeats.stats();
    return { inFlight: w.inFlight + h.inFlight, queued: w.queued + h.queued, eventLoopDelayMs: Math.round(this.eventLoopDelayMs), shed: { ...this.shed } };
  }

  startGauge(): void {
    this.gauge.start();
  }

  stop(): void {
    this.gauge.stop();
  }
}

/** Gives the request's admission slot back (idempotent): on its answer, its abort, or when it parks. */
export function releaseAdmission(request: FastifyRequest): void {
  request.admissionTicket?.release();
  request.admissionTicket = null;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Installs admission on the /v1 scope (before the bridge's own hooks): arrival time, shedding,
 * slot release, the key → tenant memory, and one warning per second while requests are shed
 * (counts since start, in flight, waiting, event-loop delay). Returns the state (tests read it).
 */
export function installAdmission(app: FastifyInstance, settings: AdmissionSettings): BridgeAdmission {
  const admission = new BridgeAdmission(settings);
  app.decorateRequest("arrivedAtMs", 0);
  app.decorateRequest("admissionTicket", null);
  app.addHook("onRequest", async (request, reply) => {
    request.arrivedAtMs = Date.now();
    if (!request.routeOptions.config.bridge) return;
    // 'close' follows every answer and also an aborted connection (and a WebSocket's end). A
    // client gone while its request waited must not keep the slot it is granted afterwards.
    let closed = false;
    reply.raw.once("close", () => {
      closed = true;
      releaseAdmission(request);
    });
    request.admissionTicket = await admission.admit(request.routeOptions.url ?? request.url, headerOf(request, "x-api-key"), request.arrivedAtMs);
    if (closed) releaseAdmission(request);
  });
  app.addHook("preHandler", async (request) => {
    const key = headerOf(request, "x-api-key");
    if (key && request.auth?.via === "api_key") admission.learn(key, request.auth.tenantId);
  });
  app.addHook("onResponse", async (request) => releaseAdmission(request));

  let reported = 0;
  const report = setInterval(() => {
    const s = admission.stats();
    const total = s.shed.queue_full + s.shed.budget + s.shed.event_loop;
    if (total === reported) return;
    app.log.warn({ admission: { ...s, shedSinceLast: total - reported } }, "bridge overloaded: requests shed with 503");
    reported = total;
  }, REPORT_MS).unref();
  app.addHook("onReady", async () => admission.startGauge());
  app.addHook("onClose", async () => {
    clearInterval(report);
    admission.stop();
  });
  return admission;
}

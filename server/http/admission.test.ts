/**
 * Admission wired into Fastify with the real bridge authentication, on each database (the key
 * lookup is SQL): a request that waited inside the server past the signature tolerance is still
 * accepted because its timestamp is checked against its arrival; a shed request gets 503
 * `overloaded` with Retry-After and never reaches its handler; a key's learned tenant gives it
 * that tenant's lane; a client that goes away gives its slot back.
 */
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { signedHeaders } from "../../tools/bridge-client/sign.ts";
import { tenants } from "../db/schema.ts";
import { installBridgeAuth } from "../features/bridge/auth.ts";
import { createApiKey } from "../features/api-keys/service.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { BridgeAdmission, installAdmission, MASTER_PRIORITY_SLOTS, UNVERIFIED } from "./admission.ts";
import { installErrorHandler } from "./error-handler.ts";

const TOLERANCE_S = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseKinds())("bridge admission on %s", (kind) => {
  let tc: TestContext;
  let app: FastifyInstance;
  let admission!: BridgeAdmission;
  let base: string;
  const keys: { apiKey: string; secret: string; tenantId: string }[] = [];
  /** Per probe call: how late (seconds past x-ts) its handler ran. */
  const handled: { ageS: number }[] = [];
  let hang: Promise<void> | null = null;

  beforeAll(async () => {
    tc = await createTestContext(kind, { BRIDGE_TS_TOLERANCE_S: String(TOLERANCE_S) });
    for (const slug of ["adm-a", "adm-b"]) {
      const [tenant] = await tc.ctx.db.insert(tenants).values({ name: slug, slug: `${slug}-${Date.now()}` }).returning();
      const key = await createApiKey(tc.ctx, tenant!.id, { name: "probe", scope: "DASHBOARD" } as Parameters<typeof createApiKey>[2]);
      keys.push({ apiKey: key.apiKey, secret: key.secret, tenantId: tenant!.id });
    }
    // Keep-alive sockets of fetch() would otherwise hold close() open.
    app = Fastify({ logger: false, forceCloseConnections: true });
    app.decorateRequest("auth", null);
    app.decorateRequest("rawBody", null);
    installErrorHandler(app);
    await app.register(async (v1) => {
      admission = installAdmission(v1, { maxInFlight: 2, maxPerTenant: 1, maxQueued: 4, maxQueuedPerTenant: 1, queueBudgetMs: 10_000, maxEventLoopDelayMs: 1000, retryAfterS: 3 });
      installBridgeAuth(v1, tc.ctx);
      v1.get("/v1/probe", { config: { bridge: { scope: "DASHBOARD", replay: "cache" } } }, async (request) => {
        handled.push({ ageS: Math.floor(Date.now() / 1000) - Number(request.headers["x-ts"]) });
        if (request.url.includes("hang") && hang) await hang;
        return { ok: true, tenantId: request.auth?.tenantId };
      });
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await tc?.close();
  });

  let n = 0;
  const probe = (k: (typeof keys)[number], extra = "", init: RequestInit = {}) => {
    n += 1;
    const path = `/v1/probe?n=${n}${extra}`;
    return fetch(base + path, { ...init, headers: signedHeaders(k.apiKey, k.secret, "GET", path, "") });
  };

  it("accepts a request that arrived in time although it waited past the tolerance inside the server", async () => {
    const held = await admission.work.acquire(UNVERIFIED, 0);
    const pending = probe(keys[0]!);
    // Keys not verified yet share one lane (one slot here): it waits until well past x-ts + tolerance.
    await sleep((TOLERANCE_S + 1.5) * 1000);
    expect(admission.stats().queued).toBe(1);
    held.release();
    const res = await pending;
    expect(res.status).toBe(200);
    // The handler really ran after the window had closed: measured on handling, this was a 401.
    expect(handled.at(-1)!.ageS).toBeGreaterThan(TOLERANCE_S);
    expect(admission.stats()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it("sheds with 503 overloaded and Retry-After, and the handler never runs", async () => {
    // A verified request first teaches admission keys[0]'s tenant (its lane from now on).
    expect((await probe(keys[0]!)).status).toBe(200);
    const before = handled.length;
    const held = await admission.work.acquire(keys[0]!.tenantId, 0);
    const shedBefore = admission.stats().shed.queue_full;
    // Its one slot is taken and its queue share (one) is filled by the next request.
    const waiting = probe(keys[0]!);
    await sleep(100);
    const res = await probe(keys[0]!);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toMatchObject({ code: "overloaded" });
    expect(admission.stats().shed.queue_full).toBe(shedBefore + 1);
    held.release();
    expect((await waiting).status).toBe(200);
    expect(handled.length).toBe(before + 1);
  });

  it("sheds every new request while the event loop lags, and admits again once it recovers", async () => {
    admission.eventLoopDelayOverrideMs = 5000;
    try {
      const res = await probe(keys[1]!);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("3");
      expect(admission.stats().shed.event_loop).toBeGreaterThanOrEqual(1);
    } finally {
      admission.eventLoopDelayOverrideMs = 0;
    }
    expect((await probe(keys[1]!)).status).toBe(200);
  });

  it("runs another tenant at once while one tenant's slot is taken (learned key → tenant lane)", async () => {
    for (const k of keys) expect((await probe(k)).status).toBe(200);
    // Overall room for two, per tenant one: a held slot of tenant A must not delay tenant B.
    const held = await admission.work.acquire(keys[0]!.tenantId, 0);
    try {
      const b = await probe(keys[1]!);
      expect(b.status).toBe(200);
      expect(await b.json()).toMatchObject({ tenantId: keys[1]!.tenantId });
      expect(admission.work.runningOf(keys[0]!.tenantId)).toBe(1);
    } finally {
      held.release();
    }
  });

  it("gives the slot back when the client goes away mid-request", async () => {
    let finish!: () => void;
    hang = new Promise<void>((r) => (finish = r));
    const aborter = new AbortController();
    const pending = probe(keys[1]!, "&hang=1", { signal: aborter.signal }).catch(() => null);
    for (let i = 0; i < 100 && admission.stats().inFlight === 0; i++) await sleep(50);
    expect(admission.stats().inFlight).toBe(1);
    aborter.abort();
    await pending;
    for (let i = 0; i < 100 && admission.stats().inFlight > 0; i++) await sleep(50);
    // Released on the connection's close, while the handler is still running.
    expect(admission.stats().inFlight).toBe(0);
    finish();
    hang = null;
    expect((await probe(keys[1]!)).status).toBe(200);
  });

  it("does not keep a slot granted to a request whose client left while it waited", async () => {
    expect((await probe(keys[1]!)).status).toBe(200);
    const held = await admission.work.acquire(keys[1]!.tenantId, 0);
    const aborter = new AbortController();
    const pending = probe(keys[1]!, "", { signal: aborter.signal }).catch(() => null);
    for (let i = 0; i < 100 && admission.stats().queued === 0; i++) await sleep(20);
    expect(admission.stats().queued).toBe(1);
    aborter.abort();
    await pending;
    await sleep(200);
    held.release();
    for (let i = 0; i < 100 && admission.stats().inFlight > 0; i++) await sleep(50);
    expect(admission.stats()).toMatchObject({ inFlight: 0, queued: 0 });
    expect((await probe(keys[1]!)).status).toBe(200);
  });
});

describe("master signals while the event loop lags", () => {
  const settings = { maxInFlight: 8, maxPerTenant: 8, maxQueued: 0, maxQueuedPerTenant: 0, queueBudgetMs: 1_000, maxEventLoopDelayMs: 200, retryAfterS: 1 };
  const SIGNAL = "/v1/master/signal/open";
  const shedCode = (p: Promise<unknown>) => p.then(() => "admitted", (err: { code?: string }) => err.code ?? "error");

  it(`admits up to ${MASTER_PRIORITY_SLOTS} at once and sheds every other request; a released one frees its place`, async () => {
    const admission = new BridgeAdmission(settings);
    admission.eventLoopDelayOverrideMs = 500;
    const held = await Promise.all(Array.from({ length: MASTER_PRIORITY_SLOTS }, () => admission.admit(SIGNAL, "k", Date.now())));
    expect(await shedCode(admission.admit("/v1/master/signal/close", "k", Date.now()))).toBe("overloaded");
    for (const route of ["/v1/slave/orders/poll", "/v1/slave/execution/report", "/v1/master/snapshot", "/v1/master/heartbeat"]) {
      expect(await shedCode(admission.admit(route, "k", Date.now()))).toBe("overloaded");
    }
    expect(admission.stats().shed.event_loop).toBe(5);
    held[0]!.release();
    held[0]!.release(); // idempotent: frees one place, not two
    const next = await admission.admit(SIGNAL, "k", Date.now());
    expect(await shedCode(admission.admit(SIGNAL, "k", Date.now()))).toBe("overloaded");
    next.release();
    for (const t of held.slice(1)) t.release();
    expect(admission.work.stats().inFlight).toBe(0);
  });

  it("still takes its lane's slot: a signal refused by the lane gives its place back", async () => {
    const admission = new BridgeAdmission({ ...settings, maxInFlight: 1, maxPerTenant: 1 });
    admission.eventLoopDelayOverrideMs = 500;
    const first = await admission.admit(SIGNAL, "k", Date.now());
    // The lane is full (no queue): queue_full, and the priority place it had taken is returned.
    expect(await shedCode(admission.admit(SIGNAL, "k", Date.now()))).toBe("overloaded");
    expect(admission.stats().shed.queue_full).toBe(1);
    first.release();
    const again = await Promise.all([admission.admit(SIGNAL, "k", Date.now())]);
    again[0].release();
  });

  it("counts nothing while the loop is on time: signals only meet the lane's bounds", async () => {
    const admission = new BridgeAdmission(settings);
    const tickets = await Promise.all(Array.from({ length: MASTER_PRIORITY_SLOTS + 3 }, () => admission.admit(SIGNAL, "k", Date.now())));
    expect(admission.work.stats().inFlight).toBe(MASTER_PRIORITY_SLOTS + 3);
    for (const t of tickets) t.release();
    admission.eventLoopDelayOverrideMs = 500;
    const lagging = await Promise.all(Array.from({ length: MASTER_PRIORITY_SLOTS }, () => admission.admit(SIGNAL, "k", Date.now())));
    for (const t of lagging) t.release();
  });
});

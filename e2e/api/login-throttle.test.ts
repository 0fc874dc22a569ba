/**
 * Login throttling that cannot be turned against the user (issue 11 "Lock-out as a weapon", OWASP
 * Authentication Cheat Sheet): failures are counted per (email, client address) with a growing
 * delay and per client address, never per account alone. Client addresses come from
 * X-Forwarded-For (TRUST_PROXY=true), as behind the production proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginResponseSchema } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { Api, type JsonResponse } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, uniqueSuffix } from "../support/tenant.ts";

const TOO_MANY = "Too many failed login attempts. Please try again later.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseKinds())("login throttling per client on %s", (kind) => {
  let db: TestDatabase;
  let quickDb: TestDatabase;
  /** Waits long enough (60 s doubling) that no test outlives one. */
  let server: RunningServer;
  /** Short waits (2 s doubling) for watching them grow. */
  let quick: RunningServer;
  let nextAddress = 0;
  /** A client address no other test has used. */
  const address = () => `203.0.113.${++nextAddress}`;
  const loginFrom = (ip: string, email: string, password: string, on = server): Promise<JsonResponse<Record<string, unknown>>> =>
    new Api(on.url).request("POST", "/api/auth/login", { email, password }, { "x-forwarded-for": ip });

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    quickDb = await createTestDatabase(kind);
    // Default 5 free failures per (email, address); a small per-address limit.
    const env = { TRUST_PROXY: "true", LOGIN_MAX_FAILURES_PER_IP: "12" };
    server = await startServer({ ...db.env, ...env, LOGIN_DELAY_BASE_SECONDS: "60" });
    quick = await startServer({ ...quickDb.env, ...env, LOGIN_DELAY_BASE_SECONDS: "2" });
  });
  afterAll(async () => {
    await server?.stop();
    await quick?.stop();
    await db?.drop();
    await quickDb?.drop();
  });

  it("lets the right password in from another address at once after five wrong ones from address A, while A waits", async () => {
    const victim = await signUp(server.url);
    const attacker = address();
    for (let i = 0; i < 5; i++) {
      const wrong = await loginFrom(attacker, victim.email, "wrong-password");
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe("Invalid email or password");
    }
    const owner = await loginFrom(address(), victim.email, victim.password);
    expect(owner.status).toBe(200);
    expect(loginResponseSchema.parse(owner.body).user.email).toBe(victim.email);

    // Address A, even with the right password, has to wait.
    const blocked = await loginFrom(attacker, victim.email, victim.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: "rate_limited", error: TOO_MANY });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The owner's success did not clear the attacker's count either.
    expect((await loginFrom(attacker, victim.email, "wrong-password")).status).toBe(429);
  });

  it("grows the delay of a failing (email, address) pair: 429 with a longer Retry-After after each further failure", async () => {
    const victim = await signUp(quick.url);
    const client = address();
    for (let i = 0; i < 5; i++) expect((await loginFrom(client, victim.email, "wrong-password", quick)).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 2; round++) {
      const refused = await loginFrom(client, victim.email, "wrong-password", quick);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: "rate_limited", error: TOO_MANY });
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(0);
      waits.push(wait);
      await sleep(wait * 1000 + 100);
      // Once the wait is over the pair may try again; this failure lengthens the next wait.
      expect((await loginFrom(client, victim.email, "wrong-password", quick)).status).toBe(401);
    }
    const third = await loginFrom(client, victim.email, "wrong-password", quick);
    expect(third.status).toBe(429);
    waits.push(Number(third.headers.get("retry-after")));
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(waits[2]).toBeGreaterThan(waits[1]!);
    // Another account from the same address is not delayed by this pair.
    const other = await signUp(quick.url);
    expect((await loginFrom(client, other.email, other.password, quick)).status).toBe(200);
  });

  it("blocks an address that fails too often across emails (429), but not the user elsewhere", async () => {
    const user = await signUp(server.url);
    const sprayer = address();
    for (let i = 0; i < 12; i++) {
      expect((await loginFrom(sprayer, `nobody-${i}-${uniqueSuffix()}@example.com`, "wrong-password")).status).toBe(401);
    }
    const blocked = await loginFrom(sprayer, user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: "rate_limited", error: TOO_MANY });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await loginFrom(sprayer, user.email, user.password)).status).toBe(429);
    expect((await loginFrom(address(), user.email, user.password)).status).toBe(200);
  });
});

/**
 * Auth over real HTTP (spec §3, §5, §7): register → login → me → logout → token rejected; every
 * §5 rule with its message; 409s; one 401 for bad email and bad password; throttling (429);
 * the session cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginResponseSchema, meResponseSchema, SESSION_COOKIE } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, uniqueSuffix } from "../support/tenant.ts";

const valid = () => {
  const s = uniqueSuffix();
  return {
    email: `user-${s}@example.com`,
    password: "password123",
    confirmPassword: "password123",
    firstName: "Grace",
    lastName: "Hopper",
    tenantName: "Hopper Capital",
    tenantSlug: `hopper-${s}`,
  };
};

describe.each(databaseKinds())("auth on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let anon: Api;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    anon = new Api(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("registers, logs in, verifies, logs out and then rejects the token", async () => {
    const body = valid();
    const reg = await anon.post("/api/auth/register", body);
    expect(reg.status).toBe(201);
    expect(reg.body.tenant).toMatchObject({ name: "Hopper Capital", slug: body.tenantSlug });

    const login = await anon.post("/api/auth/login", { email: body.email.toUpperCase(), password: body.password });
    expect(login.status).toBe(200);
    const parsed = loginResponseSchema.parse(login.body);
    expect(parsed.user).toMatchObject({ firstName: "Grace", lastName: "Hopper", email: body.email });
    expect(parsed.tenant.id).toBe(reg.body.tenant.id);
    expect(parsed.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url

    const cookie = login.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`${SESSION_COOKIE}=${parsed.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const api = anon.withToken(parsed.token);
    const me = await api.get("/api/auth/me");
    expect(me.status).toBe(200);
    expect(meResponseSchema.parse(me.body)).toEqual({ user: parsed.user, tenant: parsed.tenant });

    // The cookie alone authenticates too.
    const viaCookie = await anon.request("GET", "/api/auth/me", undefined, { cookie: `${SESSION_COOKIE}=${parsed.token}` });
    expect(viaCookie.status).toBe(200);

    const out = await api.post("/api/auth/logout");
    expect(out.status).toBe(200);
    expect((await api.get("/api/auth/me")).status).toBe(401);
    expect((await api.get("/api/accounts")).status).toBe(401);
    const cookieAfter = await anon.request("GET", "/api/auth/me", undefined, { cookie: `${SESSION_COOKIE}=${parsed.token}` });
    expect(cookieAfter.status).toBe(401);
  });

  it.each([
    ["email", { email: "not-an-email" }, "Please enter a valid email address"],
    ["password", { password: "short", confirmPassword: "short" }, "Password must be at least 8 characters"],
    ["confirmPassword", { confirmPassword: "different123" }, "Passwords don't match"],
    ["firstName", { firstName: "" }, "First name is required"],
    ["lastName", { lastName: "" }, "Last name is required"],
    ["tenantName", { tenantName: "" }, "Organization name is required"],
    ["tenantSlug", { tenantSlug: "ab" }, "Organization ID must be at least 3 characters"],
    ["tenantSlug", { tenantSlug: "Acme_Corp" }, "Organization ID can only contain lowercase letters, numbers, and hyphens"],
  ])("rejects registration with a bad %s: %j", async (path, patch, message) => {
    const res = await anon.post("/api/auth/register", { ...valid(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path, message });
    expect(res.body.error).toEqual(expect.any(String));
  });

  it("accepts a 64-character password", async () => {
    const password = "p".repeat(64);
    const body = { ...valid(), password, confirmPassword: password };
    expect((await anon.post("/api/auth/register", body)).status).toBe(201);
    expect((await anon.post("/api/auth/login", { email: body.email, password })).status).toBe(200);
  });

  it("answers 409 with a readable message for a taken email or organization ID", async () => {
    const first = valid();
    expect((await anon.post("/api/auth/register", first)).status).toBe(201);
    const sameEmail = await anon.post("/api/auth/register", { ...valid(), email: first.email });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error).toBe("An account with this email already exists");
    const sameSlug = await anon.post("/api/auth/register", { ...valid(), tenantSlug: first.tenantSlug });
    expect(sameSlug.status).toBe(409);
    expect(sameSlug.body.error).toBe("This Organization ID is already taken");
  });

  it("answers an unknown email and a wrong password identically", async () => {
    const { email } = await signUp(server.url);
    const wrong = await anon.post("/api/auth/login", { email, password: "wrong-password" });
    const unknown = await anon.post("/api/auth/login", { email: `nobody-${uniqueSuffix()}@example.com`, password: "wrong-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error).toBe("Invalid email or password");
  });

  it("validates login input with the §5 messages", async () => {
    const res = await anon.post("/api/auth/login", { email: "nope", password: "" });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { path: "email", message: "Please enter a valid email address" },
        { path: "password", message: "Password is required" },
      ]),
    );
  });

  it("rejects malformed tokens and missing auth with 401 JSON", async () => {
    expect((await anon.get("/api/auth/me")).status).toBe(401);
    const bad = await anon.withToken("x".repeat(43)).get("/api/auth/me");
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: "unauthorized" });
  });
});

describe.each(databaseKinds())("login throttling on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, LOGIN_MAX_FAILURES_PER_ACCOUNT: "3", LOGIN_MAX_FAILURES_PER_IP: "8" });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("blocks an account after repeated failures, even with the right password, then blocks the address", async () => {
    const anon = new Api(server.url);
    const victim = await signUp(server.url);
    for (let i = 0; i < 3; i++) {
      expect((await anon.post("/api/auth/login", { email: victim.email, password: "nope-nope" })).status).toBe(401);
    }
    const blocked = await anon.post("/api/auth/login", { email: victim.email, password: victim.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);

    // Per address: 5 more failures on other (unknown) accounts reach the limit of 8.
    for (let i = 0; i < 5; i++) {
      expect((await anon.post("/api/auth/login", { email: `x${i}-${uniqueSuffix()}@example.com`, password: "nope-nope" })).status).toBe(401);
    }
    const other = await signUp(server.url).catch((e: Error) => e);
    expect(other).toBeInstanceOf(Error);
    expect(String(other)).toContain("429");
  });
});

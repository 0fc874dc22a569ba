/**
 * The user's own account security over real HTTP (issue 16 "Accounts of users"): password change
 * (wrong current password, other sessions revoked), password reset by e-mail through the fake
 * SMTP server (same answer for an unknown e-mail, single use, expiry, every session revoked, no
 * SMTP → capabilities false), and two-factor sign-in with codes computed here with otpauth
 * (setup, enable, login needs the code, wrong code, recovery code once, disable).
 */
import { Secret, TOTP } from "otpauth";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginResponseSchema, twoFactorRequiredSchema, twoFactorSetupResponseSchema } from "#contract";
import { openDatabase } from "../../server/db/client.ts";
import { passwordResetTokens, users } from "../../server/db/schema.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { eventually, startFakeSmtp, type FakeSmtp } from "../support/fake-services.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, uniqueSuffix } from "../support/tenant.ts";

const codeOf = (secret: string, offsetSteps = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

/** The reset link in the last mail sent to `to` (quoted-printable soft breaks undone). */
function resetLinkIn(smtp: FakeSmtp, to: string): string | null {
  const mail = [...smtp.messages].reverse().find((m) => m.to.includes(to));
  if (!mail) return null;
  const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return /(http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+)/.exec(body)?.[1] ?? null;
}

/** A long first wait once an (email, address) pair used its free failures, so a test sees the 429 however slow the machine. */
const ENV = { LOGIN_DELAY_BASE_SECONDS: "60" };

describe.each(databaseKinds())("account security on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let smtp: FakeSmtp;
  let anon: Api;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, ...ENV, SMTP_URL: smtp.url });
    anon = new Api(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    await smtp?.close();
  });

  const login = (email: string, password: string) => anon.post("/api/auth/login", { email, password });

  describe("password change", () => {
    it("refuses a wrong current password on its field and a mismatched confirmation", async () => {
      const me = await signUp(server.url);
      const wrong = await me.api.post("/api/auth/password", { currentPassword: "not my password", newPassword: "brand new secret", confirmPassword: "brand new secret" });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: "Current password is incorrect", issues: [{ path: "currentPassword", message: "Current password is incorrect" }] });
      const mismatch = await me.api.post("/api/auth/password", { currentPassword: me.password, newPassword: "brand new secret", confirmPassword: "other" });
      expect(mismatch.status).toBe(400);
      expect(JSON.stringify(mismatch.body)).toContain("Passwords don't match");
      expect((await login(me.email, me.password)).status).toBe(200);
    });

    it("changes the password, keeps this session and revokes the others", async () => {
      const me = await signUp(server.url);
      const other = await login(me.email, me.password);
      const otherApi = anon.withToken(other.body.token);
      expect((await otherApi.get("/api/auth/me")).status).toBe(200);

      const res = await me.api.post("/api/auth/password", { currentPassword: me.password, newPassword: "brand new secret", confirmPassword: "brand new secret" });
      expect(res.status).toBe(200);
      expect((await me.api.get("/api/auth/me")).status).toBe(200);
      expect((await otherApi.get("/api/auth/me")).status).toBe(401);
      expect((await login(me.email, me.password)).status).toBe(401);
      expect((await login(me.email, "brand new secret")).status).toBe(200);
      const audit = await me.api.get("/api/audit-logs?limit=50");
      expect(JSON.stringify(audit.body)).toContain("changed their password");
    });
  });

  describe("password reset", () => {
    it("says reset is available when SMTP is configured", async () => {
      const res = await anon.get("/api/auth/capabilities");
      expect(res).toMatchObject({ status: 200, body: { passwordReset: true } });
    });

    it("answers an unknown e-mail exactly as a known one, and mails only the known one", async () => {
      const me = await signUp(server.url);
      const unknown = `nobody-${uniqueSuffix()}@example.com`;
      const a = await anon.post("/api/auth/forgot-password", { email: me.email });
      const b = await anon.post("/api/auth/forgot-password", { email: unknown });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      expect(b.body).toEqual(a.body);
      await eventually(() => resetLinkIn(smtp, me.email), 8000, "reset mail");
      expect(smtp.messages.some((m) => m.to.includes(unknown))).toBe(false);
    });

    it("resets with the mailed link once, revoking every session", async () => {
      const me = await signUp(server.url);
      await anon.post("/api/auth/forgot-password", { email: me.email });
      const link = await eventually(() => resetLinkIn(smtp, me.email), 8000, "reset mail");
      expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
      const token = decodeURIComponent(new URL(link).searchParams.get("token") ?? "");

      const mismatch = await anon.post("/api/auth/reset-password", { token, password: "reset password 1", confirmPassword: "nope" });
      expect(mismatch.status).toBe(400);

      const ok = await anon.post("/api/auth/reset-password", { token, password: "reset password 1", confirmPassword: "reset password 1" });
      expect(ok.status).toBe(200);
      expect((await me.api.get("/api/auth/me")).status).toBe(401);
      expect((await login(me.email, me.password)).status).toBe(401);
      expect((await login(me.email, "reset password 1")).status).toBe(200);

      const again = await anon.post("/api/auth/reset-password", { token, password: "reset password 2", confirmPassword: "reset password 2" });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ error: "This reset link is invalid or has expired" });
      const bogus = await anon.post("/api/auth/reset-password", { token: "x".repeat(43), password: "reset password 2", confirmPassword: "reset password 2" });
      expect(bogus.status).toBe(400);
      expect(bogus.body).toMatchObject({ error: "This reset link is invalid or has expired" });
    });

    it("refuses an expired link", async () => {
      const me = await signUp(server.url);
      await anon.post("/api/auth/forgot-password", { email: me.email });
      const link = await eventually(() => resetLinkIn(smtp, me.email), 8000, "reset mail");
      const token = decodeURIComponent(new URL(link).searchParams.get("token") ?? "");
      // The server holds PGlite's folder lock: stop it, move the token's expiry into the past, start again.
      await server.stop();
      await ageResetTokens(db, me.email);
      server = await startServer({ ...db.env, ...ENV, SMTP_URL: smtp.url });
      anon = new Api(server.url);
      const res = await anon.post("/api/auth/reset-password", { token, password: "reset password 1", confirmPassword: "reset password 1" });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "This reset link is invalid or has expired" });
      expect((await login(me.email, me.password)).status).toBe(200);
    });

    it("throttles repeated requests from one address for one e-mail with 429", async () => {
      const email = `nobody-${uniqueSuffix()}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await anon.post("/api/auth/forgot-password", { email })).status);
      expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
      expect(statuses.slice(5)).toContain(429);
    });
  });

  describe("two-factor sign-in", () => {
    it("sets up, enables, asks for the code at login, refuses a wrong code, takes a recovery code once, and disables", async () => {
      const me = await signUp(server.url);
      const setup = await me.api.post("/api/auth/two-factor/setup");
      expect(setup.status).toBe(200);
      const { secret, otpauthUrl, qrDataUrl } = twoFactorSetupResponseSchema.parse(setup.body);
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/CopyBridge:.*secret=/);
      expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
      // Not on until enabled: login still opens a session.
      expect(loginResponseSchema.safeParse((await login(me.email, me.password)).body).success).toBe(true);

      const bad = await me.api.post("/api/auth/two-factor/enable", { code: codeOf(secret, 10) });
      expect(bad.status).toBe(400);
      const enabled = await me.api.post("/api/auth/two-factor/enable", { code: codeOf(secret) });
      expect(enabled.status).toBe(200);
      const recoveryCodes: string[] = enabled.body.recoveryCodes;
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect((await me.api.get("/api/auth/me")).body.user.twoFactorEnabled).toBe(true);
      expect((await me.api.post("/api/auth/two-factor/setup")).status).toBe(409);

      // The password alone: a challenge, no session, no cookie.
      const first = await login(me.email, me.password);
      expect(first.status).toBe(200);
      const { challenge } = twoFactorRequiredSchema.parse(first.body);
      expect(first.headers.get("set-cookie")).toBeNull();
      expect(first.body).not.toHaveProperty("token");

      const wrong = await anon.post("/api/auth/login/two-factor", { challenge, code: codeOf(secret, 10) });
      expect(wrong.status).toBe(400);
      expect(wrong.body.issues[0].path).toBe("code");
      const code = codeOf(secret);
      const ok = await anon.post("/api/auth/login/two-factor", { challenge, code });
      expect(ok.status).toBe(200);
      const session = loginResponseSchema.parse(ok.body);
      expect(ok.headers.get("set-cookie")).toContain(`cb_session=${session.token}`);
      expect((await anon.withToken(session.token).get("/api/auth/me")).status).toBe(200);
      // Single use.
      expect((await anon.post("/api/auth/login/two-factor", { challenge, code: codeOf(secret) })).status).toBe(401);
      // A code signs in once (RFC 6238 §5.2): the same code on a fresh challenge is a wrong code.
      const replayChallenge = twoFactorRequiredSchema.parse((await login(me.email, me.password)).body).challenge;
      const replayed = await anon.post("/api/auth/login/two-factor", { challenge: replayChallenge, code });
      expect(replayed.status).toBe(400);
      expect(replayed.body.issues[0].path).toBe("code");

      // A recovery code works once.
      const c2 = twoFactorRequiredSchema.parse((await login(me.email, me.password)).body).challenge;
      expect((await anon.post("/api/auth/login/two-factor", { challenge: c2, recoveryCode: recoveryCodes[0]!.toUpperCase() })).status).toBe(200);
      const c3 = twoFactorRequiredSchema.parse((await login(me.email, me.password)).body).challenge;
      const reused = await anon.post("/api/auth/login/two-factor", { challenge: c3, recoveryCode: recoveryCodes[0] });
      expect(reused.status).toBe(400);
      expect(reused.body.issues[0].path).toBe("recoveryCode");

      // Disable needs the password and a current code.
      expect((await me.api.post("/api/auth/two-factor/disable", { password: "wrong password", code: codeOf(secret) })).status).toBe(400);
      expect((await me.api.post("/api/auth/two-factor/disable", { password: me.password, code: codeOf(secret, 10) })).status).toBe(400);
      expect((await me.api.post("/api/auth/two-factor/disable", { password: me.password, code: codeOf(secret) })).status).toBe(200);
      expect((await me.api.get("/api/auth/me")).body.user.twoFactorEnabled).toBe(false);
      expect(loginResponseSchema.safeParse((await login(me.email, me.password)).body).success).toBe(true);
    });

    it("allows 5 attempts per challenge, then asks to sign in again, and counts wrong codes as failed logins", async () => {
      const me = await signUp(server.url);
      const { secret } = (await me.api.post("/api/auth/two-factor/setup")).body;
      expect((await me.api.post("/api/auth/two-factor/enable", { code: codeOf(secret) })).status).toBe(200);
      const { challenge } = twoFactorRequiredSchema.parse((await login(me.email, me.password)).body);
      for (let i = 0; i < 5; i++) expect((await anon.post("/api/auth/login/two-factor", { challenge, code: codeOf(secret, 10) })).status).toBe(400);
      const after = await anon.post("/api/auth/login/two-factor", { challenge, code: codeOf(secret) });
      expect(after.status).toBe(401);
      expect(after.body.error).toBe("Your sign-in has expired. Please sign in again.");
      // Wrong codes count as failed logins: new challenges do not buy unlimited guesses.
      const again = await login(me.email, me.password);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("refuses the account routes without a session", async () => {
      expect((await anon.post("/api/auth/two-factor/setup")).status).toBe(401);
      expect((await anon.post("/api/auth/password", { currentPassword: "a", newPassword: "bbbbbbbb", confirmPassword: "bbbbbbbb" })).status).toBe(401);
    });
  });
});

describe.each(databaseKinds())("password reset without SMTP on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, SMTP_URL: "" });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("reports no password reset and still answers forgot-password neutrally", async () => {
    const anon = new Api(server.url);
    expect(await anon.get("/api/auth/capabilities")).toMatchObject({ status: 200, body: { passwordReset: false } });
    const me = await signUp(server.url);
    expect((await anon.post("/api/auth/forgot-password", { email: me.email })).status).toBe(202);
  });
});

/** Moves every reset token of `email` into the past (the link lives 30 minutes); the server must be stopped. */
async function ageResetTokens(db: TestDatabase, email: string): Promise<void> {
  const database = await openDatabase(db.options);
  try {
    const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
    await database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(passwordResetTokens.userId, user!.id));
  } finally {
    await database.close();
  }
}

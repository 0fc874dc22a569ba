/**
 * Members and invitations over real HTTP (issue 16 "Members and roles", contract/members.ts):
 * invite → e-mail through the fake SMTP server → preview → accept (signed in like login) → sign
 * in; single use, replacement and expiry → 404; a role above one's own → 403; the last owner →
 * 409; taken emails → 409; another organisation's ids → 404; removal signs the member out; a role
 * change applies on the next request; without SMTP the link comes back to the inviter.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InviteMemberResponse, LoginResponse, Role } from "#contract";
import { openDatabase } from "../../server/db/client.ts";
import { invitations } from "../../server/db/schema.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { eventually, startFakeSmtp, type FakeSmtp } from "../support/fake-services.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, uniqueSuffix, type SignedIn } from "../support/tenant.ts";

const PUBLIC_ORIGIN = "https://copy.example.com";
const PASSWORD = "invited member secret";

/** The decoded mail text sent to `to` (quoted-printable soft breaks and =3D undone), or null. */
function mailTo(smtp: FakeSmtp, to: string): string | null {
  const mail = [...smtp.messages].reverse().find((m) => m.to.includes(to));
  return mail ? mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=") : null;
}

function tokenOf(link: string): string {
  return decodeURIComponent(new URL(link).searchParams.get("token") ?? "");
}

describe.each(databaseKinds())("members on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let smtp: FakeSmtp;
  let anon: Api;
  let owner: SignedIn;

  const start = async (env: Record<string, string>) => {
    server = await startServer({ ...db.env, ALLOWED_ORIGINS: PUBLIC_ORIGIN, ...env });
    anon = new Api(server.url);
    owner = { ...owner, api: new Api(server.url, owner?.api.token ?? null) };
  };

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, ALLOWED_ORIGINS: PUBLIC_ORIGIN, SMTP_URL: smtp.url });
    anon = new Api(server.url);
    owner = await signUp(server.url, { firstName: "Olivia", lastName: "Owner" });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    await smtp?.close();
  });

  /** Invites `email` as `role` from `by`, reads the link from the mail, accepts; returns the new member's client. */
  async function join(by: Api, role: Role, email = `member-${uniqueSuffix()}@example.com`) {
    const invite = await by.post<InviteMemberResponse>("/api/members/invitations", { email, role });
    expect(invite.status).toBe(201);
    const mail = await eventually(() => mailTo(smtp, email), 8000, "invitation mail");
    const link = /(https:\/\/\S+\/accept-invitation\?token=[A-Za-z0-9_%-]+)/.exec(mail)?.[1];
    expect(link).toBeTruthy();
    const token = tokenOf(link!);
    const accepted = await anon.post<LoginResponse>("/api/invitations/accept", { token, firstName: "Mia", lastName: "Member", password: PASSWORD, confirmPassword: PASSWORD });
    expect(accepted.status).toBe(200);
    return { api: new Api(server.url, accepted.body.token), login: accepted.body, email, token };
  }

  it("invites by e-mail with the configured origin, previews, accepts once and signs the member in like login", async () => {
    const email = `new-${uniqueSuffix()}@example.com`;
    const invite = await owner.api.post<InviteMemberResponse>("/api/members/invitations", { email: email.toUpperCase(), role: "trader" });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ emailSent: true, inviteUrl: null, invitation: { email, role: "trader", status: "pending", invitedBy: "Olivia Owner" } });

    const mail = await eventually(() => mailTo(smtp, email), 8000, "invitation mail");
    expect(mail).toContain(owner.login.tenant.name);
    expect(mail).toContain("Olivia Owner");
    expect(mail).toContain("Trader");
    const link = /(\S+\/accept-invitation\?token=[A-Za-z0-9_%-]+)/.exec(mail)?.[1] ?? "";
    expect(link.startsWith(`${PUBLIC_ORIGIN}/accept-invitation?token=`)).toBe(true);
    const token = tokenOf(link);

    const preview = await anon.get(`/api/invitations/${encodeURIComponent(token)}`);
    expect(preview).toMatchObject({ status: 200, body: { email, role: "trader", tenantName: owner.login.tenant.name } });

    const mismatch = await anon.post("/api/invitations/accept", { token, firstName: "Tom", lastName: "Trader", password: PASSWORD, confirmPassword: "other" });
    expect(mismatch.status).toBe(400);

    const accepted = await anon.post<LoginResponse>("/api/invitations/accept", { token, firstName: "Tom", lastName: "Trader", password: PASSWORD, confirmPassword: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, firstName: "Tom", lastName: "Trader", role: "trader" });
    expect(accepted.body.tenant.id).toBe(owner.login.tenant.id);
    expect(accepted.headers.get("set-cookie")).toMatch(/cb_session=[^;]+; .*HttpOnly/i);
    const me = await new Api(server.url, accepted.body.token).get("/api/auth/me");
    expect(me).toMatchObject({ status: 200, body: { user: { email, role: "trader" } } });

    const again = await anon.post("/api/invitations/accept", { token, firstName: "Tom", lastName: "Trader", password: PASSWORD, confirmPassword: PASSWORD });
    expect(again).toMatchObject({ status: 404, body: { error: "This invitation is invalid or has expired" } });
    expect((await anon.get(`/api/invitations/${encodeURIComponent(token)}`)).status).toBe(404);

    const login = await anon.post<LoginResponse>("/api/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe("trader");

    const list = await owner.api.get("/api/members");
    expect(list.status).toBe(200);
    expect(list.body.members.map((m: { email: string }) => m.email)).toEqual(expect.arrayContaining([owner.email, email]));
    expect(list.body.invitations.find((i: { email: string }) => i.email === email)).toMatchObject({ status: "accepted" });

    const audit = await owner.api.get("/api/audit-logs?limit=200");
    const messages = JSON.stringify(audit.body);
    expect(messages).toContain(`invited ${email} as Trader`);
    expect(messages).toContain(`${email} accepted the invitation`);
  });

  it("answers 404 for an unknown token and a replaced invitation's link", async () => {
    expect(await anon.get(`/api/invitations/${"x".repeat(43)}`)).toMatchObject({ status: 404, body: { error: "This invitation is invalid or has expired" } });
    const email = `twice-${uniqueSuffix()}@example.com`;
    await owner.api.post("/api/members/invitations", { email, role: "viewer" });
    const first = tokenOf(/(https:\/\/\S+\/accept-invitation\?token=[A-Za-z0-9_%-]+)/.exec(await eventually(() => mailTo(smtp, email)))![1]!);
    const before = smtp.messages.length;
    await owner.api.post("/api/members/invitations", { email, role: "trader" });
    await eventually(() => smtp.messages.length > before);
    expect((await anon.get(`/api/invitations/${encodeURIComponent(first)}`)).status).toBe(404);
    const list = await owner.api.get("/api/members");
    const mine = list.body.invitations.filter((i: { email: string }) => i.email === email);
    expect(mine.map((i: { status: string; role: string }) => `${i.status}:${i.role}`).sort()).toEqual(["pending:trader", "revoked:viewer"]);
  });

  it("refuses an email that is already a member here (409) or has an account in another organisation (409)", async () => {
    const here = await owner.api.post("/api/members/invitations", { email: owner.email, role: "viewer" });
    expect(here).toMatchObject({ status: 409, body: { error: "This person is already a member" } });
    const other = await signUp(server.url);
    const there = await owner.api.post("/api/members/invitations", { email: other.email, role: "viewer" });
    expect(there.status).toBe(409);
    expect(there.body.error).toContain("another organisation");
    expect(there.body.error).toContain("Sign-in is by email alone");
    const bad = await owner.api.post("/api/members/invitations", { email: "not-an-email", role: "viewer" });
    expect(bad.status).toBe(400);
  });

  it("refuses to grant a role above one's own, and ownership to a non-owner (403)", async () => {
    const admin = await join(owner.api, "admin");
    const toOwner = await admin.api.post("/api/members/invitations", { email: `o-${uniqueSuffix()}@example.com`, role: "owner" });
    expect(toOwner.status).toBe(403);
    expect((await admin.api.post("/api/members/invitations", { email: `a-${uniqueSuffix()}@example.com`, role: "admin" })).status).toBe(201);
    const trader = await join(admin.api, "trader");
    expect((await admin.api.request("PATCH", `/api/members/${trader.login.user.id}`, { role: "owner" })).status).toBe(403);
    expect((await admin.api.request("PATCH", `/api/members/${owner.login.user.id}`, { role: "viewer" })).status).toBe(403);
    expect((await admin.api.delete(`/api/members/${owner.login.user.id}`)).status).toBe(403);
    // Within their rights an admin changes a trader's role.
    expect(await admin.api.request("PATCH", `/api/members/${trader.login.user.id}`, { role: "viewer" })).toMatchObject({ status: 200, body: { role: "viewer" } });
  });

  it("keeps at least one owner (409) and lets a second owner step down", async () => {
    const demote = await owner.api.request("PATCH", `/api/members/${owner.login.user.id}`, { role: "admin" });
    expect(demote).toMatchObject({ status: 409, body: { error: "An organisation needs at least one owner" } });
    const remove = await owner.api.delete(`/api/members/${owner.login.user.id}`);
    expect(remove).toMatchObject({ status: 409, body: { error: "An organisation needs at least one owner" } });
    const second = await join(owner.api, "owner");
    expect((await second.api.request("PATCH", `/api/members/${second.login.user.id}`, { role: "admin" })).status).toBe(200);
    expect((await owner.api.get("/api/auth/me")).body.user.role).toBe("owner");
  });

  it("answers 404 for another organisation's member and invitation ids", async () => {
    const other = await signUp(server.url);
    const invite = await other.api.post<InviteMemberResponse>("/api/members/invitations", { email: `x-${uniqueSuffix()}@example.com`, role: "viewer" });
    expect(invite.status).toBe(201);
    expect((await owner.api.request("PATCH", `/api/members/${other.login.user.id}`, { role: "viewer" })).status).toBe(404);
    expect((await owner.api.delete(`/api/members/${other.login.user.id}`)).status).toBe(404);
    expect((await owner.api.delete(`/api/members/invitations/${invite.body.invitation.id}`)).status).toBe(404);
    expect((await other.api.get("/api/auth/me")).body.user.role).toBe("owner");
    // Its owner revokes it; the link stops working.
    expect((await other.api.delete(`/api/members/invitations/${invite.body.invitation.id}`)).status).toBe(200);
    expect((await other.api.delete(`/api/members/invitations/${invite.body.invitation.id}`)).status).toBe(409);
  });

  it("applies a role change on the member's next request and signs a removed member out", async () => {
    const trader = await join(owner.api, "trader");
    expect((await trader.api.post("/api/symbol-maps", {})).status).toBe(400);
    expect((await owner.api.request("PATCH", `/api/members/${trader.login.user.id}`, { role: "viewer" })).status).toBe(200);
    const refused = await trader.api.post("/api/symbol-maps", {});
    expect(refused).toMatchObject({ status: 403, body: { code: "forbidden", permission: "copy.operate", error: "Your role (Viewer) cannot operate copying" } });

    expect((await owner.api.delete(`/api/members/${trader.login.user.id}`)).status).toBe(200);
    expect((await trader.api.get("/api/auth/me")).status).toBe(401);
    expect((await anon.post("/api/auth/login", { email: trader.email, password: PASSWORD })).status).toBe(401);
    const audit = JSON.stringify((await owner.api.get("/api/audit-logs?limit=200")).body);
    expect(audit).toContain(`removed ${trader.email} (Viewer)`);
    expect(audit).toContain(`changed the role of ${trader.email} from Trader to Viewer`);
  });

  it("refuses an expired link (404) and, without SMTP, returns the link to the inviter", async () => {
    const email = `late-${uniqueSuffix()}@example.com`;
    await owner.api.post("/api/members/invitations", { email, role: "viewer" });
    const token = tokenOf(/(https:\/\/\S+\/accept-invitation\?token=[A-Za-z0-9_%-]+)/.exec(await eventually(() => mailTo(smtp, email)))![1]!);
    // The server holds PGlite's folder lock: stop it, move the expiry into the past, start again (no SMTP now).
    await server.stop();
    const database = await openDatabase(db.options);
    try {
      await database.db.update(invitations).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(invitations.email, email));
    } finally {
      await database.close();
    }
    await start({});
    const accept = await anon.post("/api/invitations/accept", { token, firstName: "L", lastName: "Ate", password: PASSWORD, confirmPassword: PASSWORD });
    expect(accept).toMatchObject({ status: 404, body: { error: "This invitation is invalid or has expired" } });
    const list = await owner.api.get("/api/members");
    expect(list.body.invitations.find((i: { email: string }) => i.email === email)).toMatchObject({ status: "expired" });

    const plain = `plain-${uniqueSuffix()}@example.com`;
    const invite = await owner.api.post<InviteMemberResponse>("/api/members/invitations", { email: plain, role: "admin" });
    expect(invite.status).toBe(201);
    expect(invite.body.emailSent).toBe(false);
    expect(invite.body.inviteUrl).toMatch(new RegExp(`^${PUBLIC_ORIGIN}/accept-invitation\\?token=`));
    const preview = await anon.get(`/api/invitations/${encodeURIComponent(tokenOf(invite.body.inviteUrl!))}`);
    expect(preview).toMatchObject({ status: 200, body: { email: plain, role: "admin" } });

    // Guessing tokens is throttled like login: a few free failures per address, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await anon.post("/api/invitations/accept", { token: `guess-${i}`, firstName: "G", lastName: "Uess", password: PASSWORD, confirmPassword: PASSWORD })).status);
    // (The expired link above already counted as one failure of this address.)
    expect(statuses.slice(0, 4)).toEqual([404, 404, 404, 404]);
    expect(statuses.slice(4)).toContain(429);
  });
});

/**
 * Roles over real HTTP (issue 16 "Members and roles", contract/permissions.ts): every /api route
 * the app registers is either public or listed in server/features/members/route-permissions.ts
 * (a session route answers 401 without a session), the map names no route that does not exist,
 * and for each of viewer, trader, admin and owner — invited through the members API into one
 * organisation — route by route: a role lacking the permission gets the agreed 403 and nothing is
 * written; a role holding it gets past the check (any other status: bodies are empty, ids random,
 * so nothing is created).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { can, deniedReason, type InviteMemberResponse, type LoginResponse, type Role } from "#contract";
import { buildApp } from "../../server/http/app.ts";
import { ROUTE_PERMISSIONS } from "../../server/features/members/route-permissions.ts";
import { createTestContext } from "../../server/test-support/context.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, uniqueSuffix, type SignedIn } from "../support/tenant.ts";

const PASSWORD = "role member secret";

/** Every /api route the app registers ("METHOD /api/…"), HEAD twins left out. */
async function registeredApiRoutes(): Promise<string[]> {
  const t = await createTestContext();
  const routes: string[] = [];
  try {
    const app = await buildApp(t.ctx, { logger: false, onRoute: (m, url) => routes.push(`${m} ${url}`) });
    await app.ready();
    await app.close();
  } finally {
    await t.close();
  }
  return [...new Set(routes.filter((r) => r.includes(" /api/") && !r.startsWith("HEAD ")))].sort();
}

/** The route's path with every `:param` replaced by a random id (nothing of the tenant's). */
function concretePath(url: string): string {
  return url.replace(/:[A-Za-z]+/g, () => randomUUID());
}

function split(route: string): { method: string; url: string } {
  const [method, url] = route.split(" ") as [string, string];
  return { method, url };
}

/** Sends the route with no query and, for writes, an empty JSON object. */
function call(api: Api, route: string) {
  const { method, url } = split(route);
  return api.request(method, concretePath(url), method === "GET" || method === "DELETE" ? undefined : {});
}

describe.each(databaseKinds())("permissions on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let anon: Api;
  let owner: SignedIn;
  let routes: string[];
  const clients = {} as Record<Role, { api: Api; email: string }>;

  beforeAll(async () => {
    routes = await registeredApiRoutes();
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env });
    anon = new Api(server.url);
    owner = await signUp(server.url);
    clients.owner = { api: owner.api, email: owner.email };
    // Without SMTP the invitation answers with its link, which we accept like the page would.
    for (const role of ["admin", "trader", "viewer"] as const) {
      const email = `${role}-${uniqueSuffix()}@example.com`;
      const invite = await owner.api.post<InviteMemberResponse>("/api/members/invitations", { email, role });
      if (invite.status !== 201 || !invite.body.inviteUrl) throw new Error(`invite ${role}: ${invite.status} ${JSON.stringify(invite.body)}`);
      const token = new URL(invite.body.inviteUrl).searchParams.get("token");
      const accepted = await anon.post<LoginResponse>("/api/invitations/accept", { token, firstName: "Role", lastName: role, password: PASSWORD, confirmPassword: PASSWORD });
      if (accepted.status !== 200 || accepted.body.user.role !== role) throw new Error(`accept ${role}: ${accepted.status}`);
      clients[role] = { api: new Api(server.url, accepted.body.token), email };
    }
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("lists every session route in the permission map, and only registered routes", async () => {
    expect(routes.length).toBeGreaterThan(40);
    const sessionRoutes: string[] = [];
    for (const route of routes) {
      // A session route refuses an anonymous caller before anything else (authentication runs first).
      if ((await call(anon, route)).status === 401) sessionRoutes.push(route);
    }
    expect(sessionRoutes.length).toBeGreaterThan(40);
    expect(sessionRoutes.filter((r) => ROUTE_PERMISSIONS[r] === undefined)).toEqual([]);
    // Public routes stay out of the map; every entry names a real route.
    expect(Object.keys(ROUTE_PERMISSIONS).filter((r) => !sessionRoutes.includes(r))).toEqual([]);
  });

  for (const role of ["viewer", "trader", "admin", "owner"] as const) {
    it(`${role}: refused exactly the routes its role lacks, with the agreed 403 and nothing written`, async () => {
      const { api } = clients[role];
      const lastAudit = async () => ((await owner.api.get<{ id: string }[]>("/api/audit-logs?limit=1")).body[0]?.id ?? null);
      const before = await lastAudit();
      const wrong: string[] = [];
      let denied = 0;
      for (const route of routes) {
        const requirement = ROUTE_PERMISSIONS[route];
        if (requirement === undefined) continue;
        if (requirement !== "self" && !can(role, requirement)) {
          const res = await call(api, route);
          denied++;
          const expected = { error: deniedReason(role, requirement), code: "forbidden", permission: requirement };
          if (res.status !== 403 || JSON.stringify(res.body) !== JSON.stringify(expected)) wrong.push(`${route} → ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      expect(wrong).toEqual([]);
      // Refused before any handler ran: not one audit entry was written by the refused calls.
      expect(await lastAudit()).toEqual(before);
      if (role === "viewer") expect(denied).toBeGreaterThan(20);
      if (role === "owner") expect(denied).toBe(0);
    });

    it(`${role}: gets past the check on every route its role holds`, async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        const requirement = ROUTE_PERMISSIONS[route];
        if (requirement === undefined || (requirement !== "self" && !can(role, requirement))) continue;
        // Signing out ends the session it is sent with: use a session of its own.
        let api = clients[role].api;
        if (route === "POST /api/auth/logout") {
          const login = await anon.post<LoginResponse>("/api/auth/login", { email: clients[role].email, password: role === "owner" ? owner.password : PASSWORD });
          api = new Api(server.url, login.body.token);
        }
        const res = await call(api, route);
        if (res.status === 403 || res.status === 401 || res.status >= 500) wrong.push(`${route} → ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});

/**
 * Every /api route that takes an id, with how to create the resource it names. The cross-tenant
 * suite calls each with another tenant's id (in place of the path's one `:param`, whatever its
 * name) and expects 404; server/http/id-routes.test.ts fails when a route with an id is added to
 * the server without being listed here.
 */
import type { Api } from "./http.ts";

export type ResourceKind = "account" | "apiKey" | "symbolMap" | "alertConfig" | "member" | "invitation";

export interface IdRoute {
  method: "GET" | "PUT" | "PATCH" | "POST" | "DELETE";
  /** Route pattern as registered, e.g. /api/accounts/:id */
  path: string;
  resource: ResourceKind;
  /** A body that would succeed for the owner. */
  body?: unknown;
}

/** A valid EA profile (PUT /api/accounts/:id/settings), shared by the suites that need one. */
export const SAMPLE_EA_PROFILE = {
  retryMax: 4,
  retryBackoffMs: 300,
  slipToMarket: true,
  symbolWhitelist: [],
  symbolBlacklist: [],
  tradingHours: "Mon-Fri:00:00-23:59",
  equityMin: "0",
  overrideLocal: false,
};

export const ID_ROUTES: IdRoute[] = [
  { method: "GET", path: "/api/accounts/:id", resource: "account" },
  { method: "PUT", path: "/api/accounts/:id", resource: "account", body: { status: "paused", alias: "stolen" } },
  { method: "DELETE", path: "/api/accounts/:id", resource: "account" },
  { method: "PUT", path: "/api/accounts/:id/settings", resource: "account", body: SAMPLE_EA_PROFILE },
  { method: "GET", path: "/api/accounts/:id/symbol-specs", resource: "account" },
  { method: "GET", path: "/api/accounts/:id/snapshot", resource: "account" },
  { method: "GET", path: "/api/accounts/:id/sync", resource: "account" },
  { method: "POST", path: "/api/accounts/:id/sync", resource: "account", body: { dryRun: true } },
  { method: "POST", path: "/api/accounts/:id/resume-copying", resource: "account" },
  { method: "PUT", path: "/api/copy-settings/:slaveAccountId", resource: "account", body: { sizing: { mode: "fixed", fixedVolume: "0.5" }, reverse: true } },
  { method: "PATCH", path: "/api/bridge/api-keys/:id", resource: "apiKey", body: { enabled: false } },
  { method: "DELETE", path: "/api/bridge/api-keys/:id", resource: "apiKey" },
  { method: "PUT", path: "/api/symbol-maps/:id", resource: "symbolMap", body: { enabled: false } },
  { method: "DELETE", path: "/api/symbol-maps/:id", resource: "symbolMap" },
  { method: "PUT", path: "/api/alerts/configs/:id", resource: "alertConfig", body: { enabled: false } },
  { method: "DELETE", path: "/api/alerts/configs/:id", resource: "alertConfig" },
  { method: "POST", path: "/api/alerts/configs/:id/test", resource: "alertConfig" },
  { method: "PATCH", path: "/api/members/:id", resource: "member", body: { role: "viewer" } },
  { method: "DELETE", path: "/api/members/:id", resource: "member" },
  { method: "DELETE", path: "/api/members/invitations/:id", resource: "invitation" },
];

/**
 * Public routes whose parameter is a capability (a secret token), not a tenant-owned id: nothing
 * to answer 404 "across tenants" for. Listed so the guard test knows they are deliberate.
 */
export const CAPABILITY_ROUTES = ["GET /api/invitations/:token"];

/** Creates one resource of each kind for a tenant; returns their ids. */
export async function createResources(api: Api): Promise<Record<ResourceKind, string>> {
  const account = await api.post("/api/accounts", {
    accountNumber: "31337",
    alias: "Owned",
    broker: "Owner Broker",
    platform: "MT4",
    role: "SLAVE",
    status: "active",
  });
  if (account.status !== 201) throw new Error(`create account: ${account.status}`);
  const key = await api.post("/api/bridge/api-keys", { name: "Owned key", scope: "SLAVE", accountId: account.body.id });
  if (key.status !== 201) throw new Error(`create key: ${key.status}`);
  const map = await api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.o", slaveAccountId: account.body.id, lotMultiplier: 1 });
  if (map.status !== 201) throw new Error(`create symbol map: ${map.status}`);
  const alert = await api.post("/api/alerts/configs", {
    name: "Owned alert",
    type: "copy_failure",
    channels: { discord: { webhookUrl: "http://127.0.0.1:9/never" } },
  });
  if (alert.status !== 201) throw new Error(`create alert: ${alert.status}`);
  // A member (invited and accepted: the test server has no SMTP, so the link comes back) and a pending invitation.
  const invited = await api.post("/api/members/invitations", { email: `owned-member-${Date.now()}@example.com`, role: "trader" });
  if (invited.status !== 201 || !invited.body.inviteUrl) throw new Error(`invite member: ${invited.status}`);
  const token = new URL(invited.body.inviteUrl as string).searchParams.get("token");
  const accepted = await api.post("/api/invitations/accept", { token, firstName: "Owned", lastName: "Member", password: "owned-member-pw", confirmPassword: "owned-member-pw" });
  if (accepted.status !== 200) throw new Error(`accept invitation: ${accepted.status}`);
  const pending = await api.post("/api/members/invitations", { email: `owned-pending-${Date.now()}@example.com`, role: "viewer" });
  if (pending.status !== 201) throw new Error(`invite pending: ${pending.status}`);
  return {
    account: account.body.id as string,
    apiKey: key.body.id as string,
    symbolMap: map.body.id as string,
    alertConfig: alert.body.id as string,
    member: accepted.body.user.id as string,
    invitation: pending.body.invitation.id as string,
  };
}

/**
 * What every session route of /api needs (issue 16 "Members and roles", contract/permissions.ts):
 * a permission, or "self" for what any signed-in user may do to their own account (profile,
 * password, two-factor, logout). Keys are `METHOD url` exactly as Fastify registers the route
 * (`request.routeOptions.url`, with `:params`). Public routes (no session) are not listed.
 *
 * The guard (permission-guard.ts) refuses a route missing here (fail closed), and
 * e2e/api/permissions.test.ts fails when a registered session route is not listed — so adding a
 * route means adding its line. Reads are "view"; writes follow the table in contract/permissions.ts.
 */
import type { Permission } from "#contract";

export type RouteRequirement = Permission | "self";

export const ROUTE_PERMISSIONS: Readonly<Record<string, RouteRequirement>> = {
  // Own account
  "GET /api/auth/me": "self",
  "POST /api/auth/logout": "self",
  "POST /api/auth/password": "self",
  "POST /api/auth/two-factor/setup": "self",
  "POST /api/auth/two-factor/enable": "self",
  "POST /api/auth/two-factor/disable": "self",

  // Overview (issue 16)
  "GET /api/overview": "view",

  // Accounts
  "GET /api/accounts": "view",
  "GET /api/accounts/master": "view",
  "GET /api/accounts/slaves": "view",
  "GET /api/accounts/:id": "view",
  "GET /api/accounts/:id/symbol-specs": "view",
  "GET /api/accounts/:id/snapshot": "view",
  "POST /api/accounts": "accounts.manage",
  "PUT /api/accounts/:id": "accounts.manage",
  "DELETE /api/accounts/:id": "accounts.manage",

  // Protection (close-only) and the EA profile / risk
  "POST /api/accounts/:id/resume-copying": "copy.operate",
  "PUT /api/accounts/:id/settings": "copy.operate",
  "GET /api/risk-limits": "view",
  "POST /api/risk-limits": "copy.operate",

  // Emergency
  "GET /api/emergency/status": "view",
  "POST /api/emergency/pause-all": "copy.operate",
  "POST /api/emergency/panic-stop": "copy.operate",
  "POST /api/emergency/close-all": "copy.operate",
  "POST /api/emergency/resume": "copy.operate",

  // Audit
  "GET /api/audit-logs": "view",
  "GET /api/audit-logs/export": "view",

  // API keys
  "GET /api/bridge/api-keys": "view",
  "POST /api/bridge/api-keys": "keys.manage",
  "PATCH /api/bridge/api-keys/:id": "keys.manage",
  "DELETE /api/bridge/api-keys/:id": "keys.manage",
  "GET /api/bridge/stats": "view",

  // Symbol mappings
  "GET /api/symbol-maps": "view",
  "POST /api/symbol-maps": "copy.operate",
  "PUT /api/symbol-maps/:id": "copy.operate",
  "DELETE /api/symbol-maps/:id": "copy.operate",

  // Copy settings; the copy preview is a POST but changes nothing (a plan of what would be copied):
  // a viewer reads everything, so it is "view".
  "GET /api/copy-settings": "view",
  "PUT /api/copy-settings/:slaveAccountId": "copy.operate",
  "POST /api/copy/preview": "view",

  // Trades, executions, analytics
  "GET /api/signals": "view",
  "GET /api/signals/export": "view",
  "GET /api/executions": "view",
  "GET /api/executions/summary": "view",
  "GET /api/executions/verdicts": "view",
  "GET /api/analytics/performance": "view",
  "GET /api/analytics/latency": "view",
  "GET /api/analytics/latency/hops": "view",
  "GET /api/analytics/slippage": "view",

  // Alerts
  "GET /api/alerts/configs": "view",
  "POST /api/alerts/configs": "alerts.manage",
  "PUT /api/alerts/configs/:id": "alerts.manage",
  "DELETE /api/alerts/configs/:id": "alerts.manage",
  "POST /api/alerts/configs/:id/test": "alerts.manage",

  // Sync (reconciliation): the POST is a dry run or applies repairs
  "GET /api/sync": "view",
  "GET /api/accounts/:id/sync": "view",
  "POST /api/accounts/:id/sync": "copy.operate",

  // Settings and retention
  "GET /api/retention": "view",
  "PUT /api/retention": "settings.manage",
  "GET /api/settings": "view",
  "PUT /api/settings": "settings.manage",

  // Members
  "GET /api/members": "view",
  "POST /api/members/invitations": "members.manage",
  "DELETE /api/members/invitations/:id": "members.manage",
  "PATCH /api/members/:id": "members.manage",
  "DELETE /api/members/:id": "members.manage",
};

/**
 * The requirement of a route, or undefined when it is not listed. A HEAD request (Fastify answers
 * it from the GET route) needs what the GET needs.
 */
export function requirementOf(method: string, url: string): RouteRequirement | undefined {
  const m = method === "HEAD" ? "GET" : method;
  return ROUTE_PERMISSIONS[`${m} ${url}`];
}

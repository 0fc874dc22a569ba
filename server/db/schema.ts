/**
 * The whole product's schema (PostgreSQL dialect; the same migrations run on PGlite and on
 * PostgreSQL). Every tenant-owned table has `tenant_id` and is only reached through the scoped
 * query functions of its feature, which take `tenantId` as a required argument.
 *
 * Types: money, prices, volumes and points are `numeric` (exact; drizzle returns strings).
 * Times are `timestamptz`. Tickets are `text` (MT5 tickets are unsigned 64-bit).
 *
 * One file per area under schema/; this module is what the code and drizzle-kit import.
 */
export * from "./schema/tenancy.ts";
export * from "./schema/accounts.ts";
export * from "./schema/bridge.ts";
export * from "./schema/copy-engine.ts";
export * from "./schema/copy-settings.ts";
export * from "./schema/terminal-state.ts";
export * from "./schema/alerts.ts";
export * from "./schema/audit.ts";
export * from "./schema/analytics.ts";
export * from "./schema/jobs.ts";
export * from "./schema/retention.ts";
export * from "./schema/members.ts";

/** Organisations (tenants), their users and dashboard sessions. */
import { bigint, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef, ts } from "./columns.ts";

// The tenants table lives in tenants.ts: columns.ts's tenantRef() references it, and importing it
// from here would make columns.ts ↔ tenancy.ts an import cycle.
export { tenants } from "./tenants.ts";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** Stored lower-cased; unique across tenants because login is by email alone. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** owner | admin | trader | viewer (contract/permissions.ts); the registering user is the owner. */
    role: text("role").notNull().default("owner"),
    /** TOTP secret (base32), encrypted at rest (SecretBox); set while enrolling, null when off. */
    totpSecretEnc: text("totp_secret_enc"),
    /** When two-factor sign-in was confirmed with a first code; null = off. */
    totpEnabledAt: ts("totp_enabled_at"),
    /** The last TOTP step (RFC 6238 T, 30 s) a sign-in used: a code is accepted once (RFC 6238 §5.2). */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    passwordChangedAt: ts("password_changed_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), index("users_tenant_idx").on(t.tenantId)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the 256-bit bearer token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    /** Absolute expiry. Idle expiry is last_seen_at + idle timeout. */
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [uniqueIndex("sessions_token_hash_key").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

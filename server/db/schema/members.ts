/**
 * Team members (issue 16): invitations, password reset tokens, two-factor sign-in (TOTP secrets
 * live on `users`; recovery codes and pending sign-in challenges here) and the organisation's
 * server-side settings. Tokens and codes are stored as SHA-256 hex of the secret, never the secret.
 */
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef, ts } from "./columns.ts";
import { users } from "./tenancy.ts";
import { tenants } from "./tenants.ts";

/** A single-use invitation link (48 h) to join an organisation with a role. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** Lower-cased. */
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_tenant_idx").on(t.tenantId, t.createdAt)],
);

/** A single-use password reset token (30 min). */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("password_reset_tokens_token_hash_key").on(t.tokenHash), index("password_reset_tokens_user_idx").on(t.userId)],
);

/** Two-factor recovery codes: each works once in place of a TOTP code. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: ts("used_at"),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** A password-checked sign-in waiting for its second factor (5 min, a few attempts). */
export const twoFactorChallenges = pgTable(
  "two_factor_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("two_factor_challenges_token_hash_key").on(t.tokenHash)],
);

/**
 * The organisation's settings (Settings screen, stored on the server): defaults new alert
 * configurations start from, which alert types are on by default, and the EA profile's network
 * settings (API timeout in ms, retry attempts).
 */
export const tenantSettings = pgTable("tenant_settings", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
    /** Telegram bot token, encrypted at rest (SecretBox), or null. */
    telegramTokenEnc: text("telegram_token_enc"),
    telegramChatId: text("telegram_chat_id"),
    /** Alert e-mail addresses, lower-cased. */
    alertEmails: jsonb("alert_emails").$type<string[]>().notNull().default([]),
    errorAlerts: boolean("error_alerts").notNull().default(true),
    tradeAlerts: boolean("trade_alerts").notNull().default(false),
    dailyReports: boolean("daily_reports").notNull().default(true),
    apiTimeoutMs: integer("api_timeout_ms").notNull().default(5000),
    retryAttempts: integer("retry_attempts").notNull().default(3),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

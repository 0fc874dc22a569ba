/**
 * Authentication contract — spec §3 (User, Tenant, login/registration payloads), §5 (validation
 * messages, word for word), §7 (auth calls).
 */
import { z } from "zod";
import { text } from "./common.ts";
import { roleSchema } from "./permissions.ts";

export const PASSWORD_MIN = 8;
/** Long passphrases are welcome; the cap only bounds hashing work. */
export const PASSWORD_MAX = 256;

const email = z
  .string()
  .trim()
  .min(1, "Please enter a valid email address")
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

/** §5 Registration. The refine puts 'Passwords don't match' on confirmPassword. */
export const registerRequestSchema = z
  .object({
    email,
    password: z
      .string()
      .min(PASSWORD_MIN, "Password must be at least 8 characters")
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    confirmPassword: z.string(),
    firstName: text(100, "First name is too long").min(1, "First name is required"),
    lastName: text(100, "Last name is too long").min(1, "Last name is required"),
    tenantName: text(200, "Organization name is too long").min(1, "Organization name is required"),
    tenantSlug: z
      .string()
      .min(3, "Organization ID must be at least 3 characters")
      .max(63, "Organization ID must be at most 63 characters")
      .regex(/^[a-z0-9-]+$/, "Organization ID can only contain lowercase letters, numbers, and hyphens"),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** §5 Login. */
export const loginRequestSchema = z.object({
  email,
  password: z.string().min(1, "Password is required").max(PASSWORD_MAX, "Password is too long"),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The member's role in the organisation (contract/permissions.ts). */
  role: roleSchema,
  /** Whether two-factor sign-in (TOTP) is on for this user. */
  twoFactorEnabled: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const tenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  /** true after pause-all / panic-stop until POST /api/emergency/resume ("Resume copying"). */
  copyPaused: z.boolean(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** Response of POST /api/auth/login — token is also set as the httpOnly `cb_session` cookie. */
export const loginResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  tenant: tenantSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Response of POST /api/auth/register (content unused by the dashboard). */
export const registerResponseSchema = z.object({ user: userSchema, tenant: tenantSchema });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** Response of GET /api/auth/me. */
export const meResponseSchema = z.object({ user: userSchema, tenant: tenantSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

export const SESSION_COOKIE = "cb_session";

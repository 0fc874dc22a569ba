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

// ── Account security (issue 16 "Accounts of users"): password change and reset, two-factor sign-in.

const newPassword = z
  .string()
  .min(PASSWORD_MIN, "Password must be at least 8 characters")
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** POST /api/auth/password. Wrong current password → 400 on currentPassword. */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string().min(1, "Current password is required").max(PASSWORD_MAX, "Password is too long"),
    newPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** GET /api/auth/capabilities (public): what the server can do for a signed-out user. */
export const authCapabilitiesSchema = z.object({
  /** true when the server can send e-mail (SMTP_URL is set), so password reset by e-mail works. */
  passwordReset: z.boolean(),
});
export type AuthCapabilities = z.infer<typeof authCapabilitiesSchema>;

/** POST /api/auth/forgot-password (public). */
export const forgotPasswordRequestSchema = z.object({ email });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** The one neutral answer (202) of POST /api/auth/forgot-password, whether or not the e-mail exists. */
export const FORGOT_PASSWORD_SENT = "If an account exists for this email, we've sent a link to reset its password.";
export const forgotPasswordResponseSchema = z.object({ message: z.string() });
export type ForgotPasswordResponse = z.infer<typeof forgotPasswordResponseSchema>;

/** POST /api/auth/reset-password (public): the token from the e-mailed link and the new password. */
export const resetPasswordRequestSchema = z
  .object({
    token: z.string().min(1, "This reset link is invalid or has expired").max(200, "This reset link is invalid or has expired"),
    password: newPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;
export const RESET_LINK_INVALID = "This reset link is invalid or has expired";

/** POST /api/auth/two-factor/setup: a new (not yet enabled) TOTP secret, base32, and its QR code. */
export const twoFactorSetupResponseSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** PNG data URL (`data:image/png;base64,…`) of the otpauth:// URL. */
  qrDataUrl: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app");

/** POST /api/auth/two-factor/enable. */
export const twoFactorEnableRequestSchema = z.object({ code: totpCode });
export type TwoFactorEnableRequest = z.infer<typeof twoFactorEnableRequestSchema>;

/** Answer of /two-factor/enable: 10 single-use recovery codes, shown once (only hashes are kept). */
export const twoFactorEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponseSchema>;

/** POST /api/auth/two-factor/disable. */
export const twoFactorDisableRequestSchema = z.object({
  password: z.string().min(1, "Password is required").max(PASSWORD_MAX, "Password is too long"),
  code: totpCode,
});
export type TwoFactorDisableRequest = z.infer<typeof twoFactorDisableRequestSchema>;

/** POST /api/auth/login when the user has two-factor on: no session yet, a challenge for the second step. */
export const twoFactorRequiredSchema = z.object({ twoFactorRequired: z.literal(true), challenge: z.string() });
export type TwoFactorRequired = z.infer<typeof twoFactorRequiredSchema>;

/** Every answer of POST /api/auth/login: a session (spec §3) or the two-factor step. */
export const loginResultSchema = z.union([loginResponseSchema, twoFactorRequiredSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

/** POST /api/auth/login/two-factor: the challenge and either the TOTP code or one recovery code. */
export const loginTwoFactorRequestSchema = z
  .object({
    challenge: z.string().min(1).max(200),
    code: totpCode.optional(),
    recoveryCode: z.string().trim().min(1, "Enter a recovery code").max(64, "Enter a recovery code").optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    message: "Enter the 6-digit code from your authenticator app or a recovery code",
    path: ["code"],
  });
export type LoginTwoFactorRequest = z.infer<typeof loginTwoFactorRequestSchema>;

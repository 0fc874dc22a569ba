/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, ±1 step accepted) through the `otpauth` library,
 * and recovery codes. Secrets are kept encrypted with the server's SecretBox; recovery codes only
 * as SHA-256 hex.
 */
import { createHash, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";

const ISSUER = "CopyBridge";

function totpOf(secretBase32: string, label = "account"): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

/** A new random secret (160 bits, base32) and its otpauth:// URL labelled with the user's e-mail. */
export function newTotpSecret(email: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, email).toString() };
}

/** True when `code` is the secret's code for the current 30 s step or the one before or after. */
export function verifyTotp(secretBase32: string, code: string): boolean {
  return matchTotpStep(secretBase32, code) !== null;
}

/**
 * The 30 s step counter (RFC 6238's T = floor(unix ms / 30,000)) whose code `code` is — the
 * current step or the one before or after — or null. Sign-in stores it so a code works once.
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  const delta = totpOf(secretBase32).validate({ token: code.trim(), window: 1, timestamp: nowMs });
  return delta === null ? null : Math.floor(nowMs / 30_000) + delta;
}

export const RECOVERY_CODE_COUNT = 10;

/** 10 codes like `k3q9-x7pm-2c4d` (60 random bits each, unambiguous lower-case letters and digits). */
export function newRecoveryCodes(): string[] {
  const alphabet = "23456789abcdefghjkmnpqrstuvwxyz";
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(12);
    const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

/** SHA-256 hex of a recovery code, ignoring case, spaces and dashes as typed. */
export function hashRecoveryCode(code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]/g, "");
  return createHash("sha256").update(normal, "utf8").digest("hex");
}

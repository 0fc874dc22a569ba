/**
 * Turning two-factor sign-in on and off for the signed-in user (issue 16 "Accounts of users"):
 * setup stores a new encrypted TOTP secret (not yet on) and returns it with its QR code; enable
 * checks one code against it, turns it on and returns 10 recovery codes (shown once, kept as
 * hashes); disable needs the password and a current code. Errors: 409 when already on (setup,
 * enable) or off (disable), 400 naming the field for a wrong code or password.
 */
import QRCode from "qrcode";
import type { TwoFactorEnableResponse, TwoFactorSetupResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { findUserById, replaceRecoveryCodes, setTotpSecret } from "./account-queries.ts";
import { verifyPassword } from "./password.ts";
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, verifyTotp } from "./totp.ts";

export const WRONG_CODE = "That code is not correct. Check your authenticator app and try again.";
const ALREADY_ON = "Two-factor sign-in is already on";

export interface UserRef {
  tenantId: string;
  userId: string;
}

async function loadUser(ctx: AppContext, ref: UserRef) {
  const user = await findUserById(ctx.db, ref.tenantId, ref.userId);
  if (!user) throw notFound("User");
  return user;
}

/** The user's TOTP secret (base32), decrypted; null when none is stored. */
export function totpSecretOf(ctx: AppContext, user: { totpSecretEnc: string | null }): string | null {
  return user.totpSecretEnc ? ctx.secrets.decrypt(user.totpSecretEnc) : null;
}

/** Starts (or restarts) the setup: a new secret replaces any pending one. */
export async function setupTwoFactor(ctx: AppContext, ref: UserRef): Promise<TwoFactorSetupResponse> {
  const user = await loadUser(ctx, ref);
  if (user.totpEnabledAt) throw conflict(ALREADY_ON);
  const { secret, otpauthUrl } = newTotpSecret(user.email);
  await setTotpSecret(ctx.db, ref.tenantId, ref.userId, ctx.secrets.encrypt(secret), null);
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: "M", margin: 1, width: 220 });
  return { secret, otpauthUrl, qrDataUrl };
}

/** Turns two-factor on after a correct code for the pending secret; returns the recovery codes. */
export async function enableTwoFactor(ctx: AppContext, ref: UserRef, code: string): Promise<TwoFactorEnableResponse> {
  const user = await loadUser(ctx, ref);
  if (user.totpEnabledAt) throw conflict(ALREADY_ON);
  const secret = totpSecretOf(ctx, user);
  if (!secret) throw conflict("Start the two-factor setup first");
  if (!verifyTotp(secret, code)) throw invalidField("code", WRONG_CODE);
  const recoveryCodes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await setTotpSecret(tx, ref.tenantId, ref.userId, user.totpSecretEnc, new Date());
    await replaceRecoveryCodes(tx, ref.tenantId, ref.userId, recoveryCodes.map(hashRecoveryCode));
    await writeAuditLog(tx, { tenantId: ref.tenantId, category: "system", source: "auth", message: `${user.email} turned on two-factor sign-in`, metadata: { userId: user.id } });
  });
  return { recoveryCodes };
}

/** Turns two-factor off (secret and recovery codes deleted) after the password and a current code. */
export async function disableTwoFactor(ctx: AppContext, ref: UserRef, password: string, code: string): Promise<void> {
  const user = await loadUser(ctx, ref);
  const secret = totpSecretOf(ctx, user);
  if (!user.totpEnabledAt || !secret) throw conflict("Two-factor sign-in is not on");
  if (!(await verifyPassword(user.passwordHash, password))) throw invalidField("password", "Password is incorrect");
  if (!verifyTotp(secret, code)) throw invalidField("code", WRONG_CODE);
  await ctx.db.transaction(async (tx) => {
    await setTotpSecret(tx, ref.tenantId, ref.userId, null, null);
    await replaceRecoveryCodes(tx, ref.tenantId, ref.userId, []);
    await writeAuditLog(tx, { tenantId: ref.tenantId, category: "system", source: "auth", message: `${user.email} turned off two-factor sign-in`, metadata: { userId: user.id } });
  });
}

import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, verifyTotp } from "./totp.ts";

describe("TOTP", () => {
  const { secret, otpauthUrl } = newTotpSecret("ada@example.com");
  const at = (steps: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

  it("names the issuer and the account in the otpauth URL", () => {
    expect(otpauthUrl).toContain("otpauth://totp/CopyBridge:ada%40example.com?");
    expect(otpauthUrl).toContain(`secret=${secret}`);
  });
  it("accepts the current step and one either side, nothing further", () => {
    expect(verifyTotp(secret, at(0))).toBe(true);
    expect(verifyTotp(secret, at(-1))).toBe(true);
    expect(verifyTotp(secret, at(1))).toBe(true);
    expect(verifyTotp(secret, at(3))).toBe(false);
  });
});

describe("recovery codes", () => {
  it("are 10 distinct codes, hashed the same however they are typed", () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    const c = codes[0]!;
    expect(hashRecoveryCode(` ${c.toUpperCase().replace(/-/g, " ")} `)).toBe(hashRecoveryCode(c));
    expect(hashRecoveryCode(codes[1]!)).not.toBe(hashRecoveryCode(c));
  });
});

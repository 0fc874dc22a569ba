import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretBox } from "./secret-box.ts";

describe("SecretBox", () => {
  it("round-trips and never stores the plaintext", () => {
    const box = SecretBox.fromHex("11".repeat(32));
    const enc = box.encrypt("my-secret");
    expect(enc).not.toContain("my-secret");
    expect(box.decrypt(enc)).toBe("my-secret");
    expect(box.encrypt("my-secret")).not.toBe(enc); // random IV
  });

  it("rejects data encrypted under another key or tampered with", () => {
    const enc = SecretBox.fromHex("11".repeat(32)).encrypt("x");
    expect(() => SecretBox.fromHex("22".repeat(32)).decrypt(enc)).toThrow();
    const buf = Buffer.from(enc, "base64");
    buf[buf.length - 1]! ^= 1;
    expect(() => SecretBox.fromHex("11".repeat(32)).decrypt(buf.toString("base64"))).toThrow();
  });

  it("generates a 0600 key file once and reuses it", () => {
    const dir = mkdtempSync(join(tmpdir(), "cb-key-"));
    const a = SecretBox.load(undefined, dir);
    const file = join(dir, "secret.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    const b = SecretBox.load(undefined, dir);
    expect(b.decrypt(a.encrypt("same key"))).toBe("same key");
  });
});

/**
 * Encryption at rest for API key secrets: AES-256-GCM under a 32-byte server key. The server must
 * know each secret to verify HMACs, so secrets are encrypted (never hashed-and-lost) and never
 * logged. The key comes from SECRET_KEY, or is generated once into `<DATA_DIR>/secret.key` with
 * mode 0600. Several instances sharing one PostgreSQL must share SECRET_KEY.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromHex(hex: string): SecretBox {
    const key = Buffer.from(hex, "hex");
    if (key.length !== 32) throw new Error("SECRET_KEY must be 32 bytes (64 hex characters)");
    return new SecretBox(key);
  }

  /** SECRET_KEY when given, else `<dataDir>/secret.key`, created (0600) on first start. */
  static load(secretKeyHex: string | undefined, dataDir: string): SecretBox {
    if (secretKeyHex) return SecretBox.fromHex(secretKeyHex);
    const file = join(dataDir, "secret.key");
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    }
    chmodSync(file, 0o600);
    return SecretBox.fromHex(readFileSync(file, "utf8").trim());
  }

  /** → base64(iv ‖ tag ‖ ciphertext). */
  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString("base64");
  }

  /**
   * HMAC-SHA256 (base64url) of `data` under a key derived from the server key for `purpose`
   * (HMAC(server key, purpose)): a server-issued token, such as a copy preview's confirmToken,
   * that no one without the server key can forge, and that one purpose cannot replay for another.
   */
  mac(purpose: string, data: string): string {
    const derived = createHmac("sha256", this.key).update(purpose, "utf8").digest();
    return createHmac("sha256", derived).update(data, "utf8").digest("base64url");
  }

  /** Throws when the data was not produced under this key or was altered. */
  decrypt(box: string): string {
    const buf = Buffer.from(box, "base64");
    const iv = buf.subarray(0, IV_BYTES);
    const tag = buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  }
}

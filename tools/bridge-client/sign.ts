/**
 * Bridge request signing (docs/bridge-protocol.md §2): lowercase hex HMAC-SHA256 over
 * `METHOD + PATH + TS + BODY`, keyed with the secret string's bytes.
 */
import { createHmac } from "node:crypto";

export function signRequest(secret: string, method: string, path: string, ts: number | string, body: string): string {
  return createHmac("sha256", secret).update(`${method.toUpperCase()}${path}${ts}${body}`, "utf8").digest("hex");
}

/** The three auth headers for one request (`ts` defaults to now, unix seconds). */
export function signedHeaders(
  apiKey: string,
  secret: string,
  method: string,
  path: string,
  body: string,
  ts: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return { "x-api-key": apiKey, "x-ts": String(ts), "x-signature": signRequest(secret, method, path, ts, body) };
}

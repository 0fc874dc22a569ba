/**
 * Bridge request signing — spec §7 HMAC scheme, docs/bridge-protocol.md §2: `x-signature` is the
 * lowercase hex HMAC-SHA256 of METHOD + PATH + TS + BODY, keyed with the secret string's UTF-8
 * bytes. Uses WebCrypto (browsers in a secure context; Node ≥ 20 as globalThis.crypto).
 */

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Signs one request.
 * @param secret the key's secret (64 hex characters), used as UTF-8 text, not decoded from hex
 * @param method upper-case HTTP method
 * @param path request target as sent, query string included
 * @param ts the `x-ts` value (unix seconds)
 * @param body the exact body string sent ("" for none)
 * @throws Error when WebCrypto is unavailable (plain-http pages other than localhost)
 */
export async function signBridgeRequest(secret: string, method: string, path: string, ts: number | string, body: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("WebCrypto is unavailable: open the dashboard over HTTPS (or localhost) to sign requests.");
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await subtle.sign("HMAC", key, encoder.encode(`${method.toUpperCase()}${path}${ts}${body}`));
  return toHex(signature);
}

/** The three signing headers of a signed bridge request. */
export interface BridgeAuthHeaders {
  "x-api-key": string;
  "x-ts": string;
  "x-signature": string;
}

/** Headers for `POST path` with `body`, signed at `ts` (default: now). */
export async function bridgeAuthHeaders(
  apiKey: string,
  secret: string,
  method: string,
  path: string,
  body: string,
  ts: number = Math.floor(Date.now() / 1000),
): Promise<BridgeAuthHeaders> {
  return { "x-api-key": apiKey, "x-ts": String(ts), "x-signature": await signBridgeRequest(secret, method, path, ts, body) };
}

/**
 * Sends one Testing-tab request to this server's bridge (same origin), signed per spec §7's
 * HMAC scheme — beyond the spec's placeholder headers. The secret never leaves the browser.
 */
import { bridgeAuthHeaders } from "./sign-request";
import type { TestRequest } from "./test-payload";

export interface TestCredentials {
  apiKey: string;
  secret: string;
}

export interface TestResult {
  method: "POST";
  path: string;
  /** Headers sent (signature included). */
  headers: Record<string, string>;
  /** Body sent, byte for byte. */
  body: string;
  status: number;
  statusText: string;
  /** Response body: indented JSON when it is JSON, the raw text otherwise. */
  response: string;
}

/** Indented JSON for JSON text, the text itself otherwise. */
export function prettyResponse(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * POSTs `request` with `x-api-key`, `x-ts` and `x-signature` (when a key id and secret are
 * given; without them the server's 401 `missing_headers` answer is shown). `extraHeaders`: e.g. the
 * Live mode's `x-cb-confirm` (the confirmed preview's token; not part of the signature).
 * @throws on network failure or when signing is impossible (no WebCrypto)
 */
export async function sendTestRequest(request: TestRequest, { apiKey, secret }: TestCredentials, extraHeaders: Record<string, string> = {}): Promise<TestResult> {
  const key = apiKey.trim();
  const headers: Record<string, string> = { "content-type": "application/json", ...extraHeaders };
  if (key && secret) Object.assign(headers, await bridgeAuthHeaders(key, secret.trim(), "POST", request.path, request.body));
  else if (key) headers["x-api-key"] = key;
  const res = await fetch(request.path, { method: "POST", headers, body: request.body, credentials: "omit" });
  return {
    method: "POST",
    path: request.path,
    headers,
    body: request.body,
    status: res.status,
    statusText: res.statusText,
    response: prettyResponse(await res.text()),
  };
}

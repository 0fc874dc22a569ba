/**
 * Verification of signed bridge requests (docs/bridge-protocol.md §2–§3, spec §7 HMAC scheme,
 * §9 ±60 s). Checks, in order: the three headers (missing_headers), the key (unknown_key), the
 * timestamp window (timestamp_out_of_window), the signature over the raw body bytes
 * (bad_signature: hex form and length first, then a constant-time compare) and last whether the
 * key is enabled (key_disabled — told only to a caller who proved they hold the secret).
 * The timestamp's age is measured at the request's ARRIVAL (`request.arrivedAtMs`, set by
 * http/admission.ts in the first hook), never when verification runs: time a request spends
 * waiting inside the server (admission queue, database pool) must not turn it into a 401.
 * Nothing is written for a rejected request.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../db/raw.ts";
import { apiKeys } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import type { ApiKeyRow } from "../api-keys/mappers.ts";
import type { SecretBox } from "../api-keys/secret-box.ts";
import type { ApiKeyCache, CachedKey } from "./key-cache.ts";

const SIGNATURE_RE = /^[0-9a-fA-F]{64}$/;
const TS_RE = /^\d{1,12}$/;

export interface VerifiedRequest {
  key: ApiKeyRow;
  /** Lower-cased signature (the replay cache key). */
  signature: string;
  /** x-ts, unix seconds. */
  ts: number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** HMAC-SHA256(secret, METHOD + path + ts + body), lowercase hex. */
export function computeSignature(secret: string, method: string, path: string, ts: string, body: Buffer | null): Buffer {
  const h = createHmac("sha256", secret).update(`${method.toUpperCase()}${path}${ts}`, "utf8");
  if (body) h.update(body);
  return h.digest();
}

const findKey = rawStatement("bridge_find_api_key", `select ${tableColumns(apiKeys)} from api_keys where key_id = $1 limit 1`, tableRow(apiKeys));

/** Where keys are looked up: the database, through `cache` when given (key-cache.ts). */
export interface KeySource {
  db: Db;
  secrets: SecretBox;
  cache?: ApiKeyCache | undefined;
}

/** The key `keyId` with its decrypted secret (null when undecryptable), from the cache or the database; null when unknown. */
async function lookUpKey(src: KeySource, keyId: string): Promise<CachedKey | null> {
  const hit = src.cache?.get(keyId);
  if (hit) return hit;
  const epoch = src.cache?.mark() ?? 0;
  const [row] = await runRaw(src.db, findKey, [keyId]);
  if (!row) return null;
  let secret: string | null;
  try {
    secret = src.secrets.decrypt(row.secretEnc);
  } catch {
    // Encrypted under another SECRET_KEY: the key cannot be verified (answered as a bad signature).
    secret = null;
  }
  const key = { row, secret };
  src.cache?.set(keyId, key, epoch);
  return key;
}

/**
 * Verifies a signed request (the checks in the module comment). `src`: where the key is looked up
 * (and cached). Errors: AppError missing_headers, unknown_key, timestamp_out_of_window,
 * bad_signature, key_disabled.
 */
export async function verifySignedRequest(
  src: KeySource,
  request: FastifyRequest,
  toleranceS: number,
  // Outside /v1 (signed dashboard GETs) no arrival is recorded: verification runs on arrival there.
  nowMs = request.arrivedAtMs || Date.now(),
): Promise<VerifiedRequest> {
  const keyId = header(request, "x-api-key");
  const tsText = header(request, "x-ts");
  const signature = header(request, "x-signature");
  if (!keyId || !tsText || !signature) {
    throw new AppError("missing_headers", "Signed requests need the x-api-key, x-ts and x-signature headers");
  }
  const found = keyId.length <= 64 ? await lookUpKey(src, keyId) : null;
  if (!found) throw new AppError("unknown_key", "Unknown API key");
  const key = found.row;

  const ts = TS_RE.test(tsText) ? Number(tsText) : NaN;
  // Whole seconds on both sides: ts is integer seconds, so now − 60 must still pass.
  if (!Number.isSafeInteger(ts) || Math.abs(Math.floor(nowMs / 1000) - ts) > toleranceS) {
    throw new AppError("timestamp_out_of_window", `x-ts must be unix seconds within ${toleranceS} s of server time`);
  }

  if (!SIGNATURE_RE.test(signature)) throw new AppError("bad_signature", "x-signature must be 64 hex characters");
  const secret = found.secret;
  if (secret === null) throw new AppError("bad_signature", "Signature does not match");
  // The request target exactly as sent, query string included.
  const expected = computeSignature(secret, request.method, request.raw.url ?? request.url, tsText, request.rawBody);
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    throw new AppError("bad_signature", "Signature does not match");
  }
  if (!key.enabled) throw new AppError("key_disabled", "This API key is disabled");
  return { key, signature: signature.toLowerCase(), ts };
}

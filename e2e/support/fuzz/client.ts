/**
 * Sends fuzz requests: with the fixture's session for /api, signed with a real API key (HMAC-SHA256
 * of METHOD + PATH + TS + BODY bytes, docs/bridge-protocol.md) for /v1, with the requested
 * authentication fault, and checks an answer's body for leaked internals.
 */
import { createHmac } from "node:crypto";
import type { FuzzRequest } from "./generate.ts";
import type { RouteAuth } from "./routes.ts";

/** An API key and its secret. */
export interface SigningKey {
  apiKey: string;
  secret: string;
}

export interface Credentials {
  token: string;
  master: SigningKey;
  slave: SigningKey;
}

/** What came back: a status and the body text, or the transport error when there was no answer. */
export interface FuzzAnswer {
  status: number;
  text: string;
  error?: string;
}

function sign(secret: string, method: string, url: string, ts: string, body: string | Buffer | undefined): string {
  const h = createHmac("sha256", secret);
  h.update(`${method}${url}${ts}`);
  if (body !== undefined) h.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return h.digest("hex");
}

/** Sends `req` to `baseUrl`, authenticated as `auth` says (and broken as `req.authFault` says). */
export async function send(baseUrl: string, auth: RouteAuth, req: FuzzRequest, creds: Credentials): Promise<FuzzAnswer> {
  const headers: Record<string, string> = {};
  if (req.contentType) headers["content-type"] = req.contentType;
  const fault = req.authFault?.fault;
  if (auth === "session") {
    if (fault === "bogus-token") headers.authorization = `Bearer ${req.authFault?.value ?? ""}`;
    else if (fault === "bogus-cookie") headers.cookie = `cb_session=${req.authFault?.value ?? ""}`;
    else if (fault !== "none") headers.authorization = `Bearer ${creds.token}`;
  } else if (auth === "none") {
    if (fault === "bogus-token") headers.authorization = `Bearer ${req.authFault?.value ?? ""}`;
  } else if (fault !== "none") {
    const key = auth === "master" ? creds.master : creds.slave;
    const ts = fault === "bad-ts" ? (req.authFault?.value ?? "NaN") : String(Math.floor(Date.now() / 1000));
    headers["x-api-key"] = fault === "unknown-key" ? `cb_${req.authFault?.value ?? ""}` : key.apiKey;
    headers["x-ts"] = ts;
    if (fault !== "missing-signature") headers["x-signature"] = fault === "bad-signature" ? (req.authFault?.value ?? "") : sign(key.secret, req.method, req.url, ts, req.body);
  }
  try {
    const res = await fetch(baseUrl + req.url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : typeof req.body === "string" ? req.body : new Uint8Array(req.body),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    return { status: 0, text: "", error: `${e.message}${e.cause ? ` (${e.cause.code ?? ""} ${e.cause.message ?? ""})` : ""}` };
  }
}

/** Text that must never reach a client: stack frames, module paths, SQL and JavaScript error names. */
const LEAKS: { name: string; re: RegExp }[] = [
  { name: "stack frame", re: /(^|\\n|\n)\s*at \S.*(:\d+:\d+\)?|\(native\)|<anonymous>)/ },
  { name: "node_modules", re: /node_modules/ },
  { name: "source path", re: /\/(server|contract|work|home|usr)\/[\w./-]+\.(ts|js|mjs)/ },
  { name: "JavaScript error", re: /\b(TypeError|ReferenceError|RangeError|SyntaxError: (?!Unexpected token|Expected)|Cannot read propert|is not a function|Maximum call stack)/ },
  { name: "SQL", re: /\b(select\s.+\sfrom\s|insert\s+into\s|update\s+\S+\s+set\s|delete\s+from\s|syntax error at or near|violates (not-null|unique|foreign key|check) constraint|invalid input syntax for|out of range for type|relation "|column "|Failed query|drizzle|PGlite|postgres)/i },
];

/** The name of the first internal leak found in `text`, or null. */
export function leakIn(text: string): string | null {
  for (const l of LEAKS) if (l.re.test(text)) return l.name;
  return null;
}

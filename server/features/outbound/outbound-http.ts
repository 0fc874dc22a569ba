/**
 * The one way the server makes an HTTP request to the outside world (Discord and generic
 * webhooks, the Telegram Bot API, anything later). Guards against server-side request forgery:
 *
 * - only https: (plain http: only for hosts in OUTBOUND_HTTP_ALLOW_HOSTS);
 * - the host is resolved by our own `lookup`, which the socket uses to connect, and every address
 *   it returns must be public (address-policy.ts) unless the host is allow-listed, so a name that
 *   resolves (or re-resolves, DNS rebinding) to loopback, private, link-local, … is never
 *   connected to; IP literals, which skip the lookup, are checked before the request;
 * - no redirects (a 3xx is a failure), one deadline for the whole exchange;
 * - the response body is never read or returned: only whether it worked and a short reason of
 *   our own ("Discord answered 404", "address not allowed", "timed out").
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest, type ClientRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { classifyAddress, isAllowListed, isIpLiteral, type OutboundPolicy } from "./address-policy.ts";

/** Outcome of one outgoing request; `reason` is ours, never the remote's text. */
export type OutboundResult = { ok: true; status: number } | { ok: false; reason: string };

export const REASON_ADDRESS = "address not allowed";
export const REASON_SCHEME = "only https:// URLs are allowed";
export const REASON_TIMEOUT = "timed out";

const REFUSED = "EOUTBOUND_REFUSED";
const TIMEOUT = "EOUTBOUND_TIMEOUT";

/** An error carrying one of our own reasons (the address check refused, or the deadline passed). */
export class OutboundError extends Error {
  constructor(
    readonly code: string,
    reason: string,
  ) {
    super(reason);
    this.name = "OutboundError";
  }
}

/** A URL that passed the static checks, and whether its host may reach non-public addresses. */
export type CheckedUrl = { ok: true; url: URL; port: number; allowPrivate: boolean } | { ok: false; reason: string };

/**
 * Static checks of a URL before any connection: parsable, http(s), https unless allow-listed,
 * and an IP-literal host must be public unless allow-listed. Names are checked at connect time.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): CheckedUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: REASON_SCHEME };
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const allowPrivate = isAllowListed(policy, url.hostname, port);
  if (url.protocol === "http:" && !allowPrivate) return { ok: false, reason: REASON_SCHEME };
  if (!url.hostname) return { ok: false, reason: REASON_ADDRESS };
  if (!allowPrivate && isIpLiteral(url.hostname) && !classifyAddress(url.hostname).public) return { ok: false, reason: REASON_ADDRESS };
  return { ok: true, url, port, allowPrivate };
}

/**
 * Resolves `hostname` (all addresses) and refuses unless every address is public; with
 * `allowPrivate` (allow-listed host) any address passes. Returns the addresses in resolver order.
 */
export function resolveChecked(hostname: string, allowPrivate: boolean, options: LookupOptions = {}): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return reject(err);
      if (addresses.length === 0) return reject(new OutboundError("ENOTFOUND", "host not found"));
      if (!allowPrivate && addresses.some((a) => !classifyAddress(a.address).public)) return reject(new OutboundError(REFUSED, REASON_ADDRESS));
      resolve(addresses);
    });
  });
}

/** A socket `lookup` that only ever yields checked addresses — what the connection really uses. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, allowPrivate, options).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}

/** Our own short text for a failed connection; never the remote's words. */
export function reasonOf(err: unknown): string {
  if (err instanceof OutboundError) return err.message;
  const code = (err as NodeJS.ErrnoException | null)?.code ?? "";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return "host not found";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return REASON_TIMEOUT;
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")) return "TLS handshake failed";
  return "could not connect";
}

/**
 * POSTs `body` as JSON to `rawUrl` under `policy`. Never throws; never reads the response body.
 * `label` names the remote in the failure reason ("Discord answered 404").
 */
export async function postJson(rawUrl: string, body: unknown, policy: OutboundPolicy, label: string): Promise<OutboundResult> {
  const checked = checkOutboundUrl(rawUrl, policy);
  if (!checked.ok) return checked;
  const { url, allowPrivate } = checked;
  const payload = Buffer.from(JSON.stringify(body));
  const options: RequestOptions = {
    method: "POST",
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    port: checked.port,
    path: `${url.pathname}${url.search}`,
    headers: { "content-type": "application/json", "content-length": payload.length, "user-agent": "CopyBridge" },
    ...(url.username || url.password ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    agent: false,
    lookup: guardedLookup(allowPrivate),
  };
  return new Promise<OutboundResult>((resolve) => {
    let done = false;
    const finish = (result: OutboundResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req: ClientRequest = (url.protocol === "https:" ? httpsRequest : httpRequest)(options, (res) => {
      const status = res.statusCode ?? 0;
      res.destroy();
      req.destroy();
      finish(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, reason: `${label} answered ${status}` });
    });
    const timer = setTimeout(() => req.destroy(new OutboundError(TIMEOUT, REASON_TIMEOUT)), policy.timeoutMs);
    req.on("error", (err) => finish({ ok: false, reason: reasonOf(err) }));
    req.end(payload);
  });
}

/**
 * Save-time check of a URL the server will later call (e.g. an alert's webhook): the static
 * checks, then — for a name that is not allow-listed — a resolution that must not yield a
 * non-public address. A name that does not resolve now (or not within the deadline) is accepted:
 * the connect-time check still applies. Returns our refusal reason, or null when acceptable. Never connects.
 */
export async function refusalOfUrl(raw: string, policy: OutboundPolicy): Promise<string | null> {
  const checked = checkOutboundUrl(raw, policy);
  if (!checked.ok) return checked.reason;
  const host = checked.url.hostname.replace(/^\[|\]$/g, "");
  if (checked.allowPrivate || isIpLiteral(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, policy.timeoutMs)));
  try {
    // A resolver slower than the deadline does not block the save: the connect-time check remains.
    await Promise.race([resolveChecked(host, false), deadline]);
    return null;
  } catch (err) {
    return err instanceof OutboundError && err.code === REFUSED ? err.message : null;
  } finally {
    clearTimeout(timer);
  }
}

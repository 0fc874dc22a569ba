/**
 * Browser safety (issue 11): security headers for everything the browser loads (the dashboard,
 * /api, /ws, /downloads — not the signed /v1 terminal protocol, which no browser renders), and
 * the Origin checks against cross-site request forgery and cross-site WebSocket hijacking.
 *
 * - Headers come from `@fastify/helmet`: a strict Content-Security-Policy, X-Frame-Options DENY,
 *   nosniff, Referrer-Policy no-referrer; HSTS only on requests that came over HTTPS (behind a
 *   proxy that needs TRUST_PROXY, so `request.protocol` reads X-Forwarded-Proto); plus a
 *   Permissions-Policy switching off the powerful features the dashboard never uses.
 * - Origin checks follow OWASP's CSRF cheat sheet ("verifying origin with standard headers"): the
 *   Origin header, or when absent the Referer's origin, must be this server's own origin
 *   (scheme + Host, X-Forwarded-Host/Proto under TRUST_PROXY) or one of ALLOWED_ORIGINS.
 */
import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "#contract";
import { AppError } from "./errors.ts";

/** Methods that change state; GET, HEAD and OPTIONS must not (and are never origin-checked). */
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Paths whose answers carry no browser headers: the terminals' signed protocol stays unchanged. */
const BARE_PREFIX = "/v1/";

/** HSTS for HTTPS requests: one year, subdomains included (no preload: that is an opt-in list). */
const HSTS = { maxAge: 31_536_000, includeSubDomains: true } as const;

/**
 * Permissions-Policy: the dashboard uses none of these browser features, so no page of it (or
 * anything injected into it) may ask for them.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "usb=()",
].join(", ");

/** The 403 every refused origin gets. */
export const forbiddenOrigin = () => new AppError("forbidden_origin", "Request origin not allowed");

/** Host values we are willing to echo into the CSP (a Host header is client input). */
const SAFE_HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/** `scheme://host[:port]` of `value`, lower-cased with the default port dropped; null when it is not a URL origin (e.g. `null`). */
export function originOf(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const origin = new URL(value).origin;
  return origin === "null" ? null : origin;
}

/** This server's origin as the browser sees it: request scheme + Host (both proxy-aware under TRUST_PROXY). */
export function ownOriginOf(request: FastifyRequest): string | null {
  const host = request.host;
  if (!host || !SAFE_HOST.test(host)) return null;
  return originOf(`${request.protocol}://${host}`);
}

/**
 * The origin a request claims to come from: its Origin header, else its Referer's origin.
 * `undefined` when it sends neither; the string `"null"` when the browser hid it (sandboxed
 * frames, `Origin: null`) or the value is not a URL — never equal to an allowed origin.
 */
export function claimedOriginOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === "string" && origin !== "") return originOf(origin) ?? "null";
  const referer = request.headers.referer;
  if (typeof referer === "string" && referer !== "") return originOf(referer) ?? "null";
  return undefined;
}

/** true when `claimed` is this server's own origin or one of `allowed`. */
export function isAllowedOrigin(request: FastifyRequest, claimed: string, allowed: readonly string[]): boolean {
  return claimed === ownOriginOf(request) || allowed.includes(claimed);
}

/** true for POST, PUT, PATCH and DELETE. */
export function isStateChanging(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/**
 * The ambient-credential check for /api (onRequest, before routing to a handler): a state-changing
 * request that does not authenticate itself with a header (`Authorization`, or a signed
 * `x-api-key`) is one a browser may have been tricked into sending, so when it names an origin,
 * that origin must be ours or allowed. Covers the cookie-authenticated routes and the public
 * ones (login, register: no login CSRF). Bearer-token and signed requests pass untouched.
 *
 * @throws AppError `forbidden_origin` (403)
 */
export function assertCrossSiteSafe(request: FastifyRequest, allowed: readonly string[]): void {
  if (!isStateChanging(request.method)) return;
  if (request.headers.authorization !== undefined || request.headers["x-api-key"] !== undefined) return;
  const claimed = claimedOriginOf(request);
  if (claimed !== undefined && !isAllowedOrigin(request, claimed, allowed)) throw forbiddenOrigin();
}

/**
 * For a request about to be authenticated by the session COOKIE: a state change must name its
 * origin (OWASP: when neither Origin nor Referer is present, refuse) and that origin must be ours
 * or allowed. Browsers send Origin on every fetch POST, so the dashboard is unaffected; a script
 * holding the cookie can send the header or use the Bearer token like any API client.
 *
 * @throws AppError `forbidden_origin` (403)
 */
export function assertCookieRequestOrigin(request: FastifyRequest, allowed: readonly string[]): void {
  if (!isStateChanging(request.method)) return;
  const claimed = claimedOriginOf(request);
  if (claimed === undefined || !isAllowedOrigin(request, claimed, allowed)) throw forbiddenOrigin();
}

/**
 * For the /ws upgrade: browsers always send Origin on a WebSocket handshake, and cookies ride
 * along, so a foreign page could otherwise read a trader's live feed. Clients that send no Origin
 * (terminals, scripts) are not browsers and authenticate explicitly.
 *
 * @throws AppError `forbidden_origin` (403)
 */
export function assertSocketOrigin(request: FastifyRequest, allowed: readonly string[]): void {
  const origin = request.headers.origin;
  if (typeof origin !== "string" || origin === "") return;
  if (!isAllowedOrigin(request, originOf(origin) ?? "null", allowed)) throw forbiddenOrigin();
}

/** true when a request would be authenticated by the `cb_session` cookie (no explicit credential). */
export function usesSessionCookie(request: FastifyRequest): boolean {
  return (
    request.headers.authorization === undefined &&
    request.headers["x-api-key"] === undefined &&
    typeof request.cookies[SESSION_COOKIE] === "string" &&
    request.cookies[SESSION_COOKIE] !== ""
  );
}

/** `ws://host` and `wss://host` of this request (CSP `connect-src`; older engines do not count them as 'self'). */
function socketSources(request: FastifyRequest): string[] {
  const host = request.host;
  return host && SAFE_HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
}

/** The Content-Security-Policy of one request (its connect-src names this request's own socket origins). */
function contentSecurityPolicyFor(request: FastifyRequest) {
  return {
    useDefaults: false,
    directives: {
      "default-src": ["'self'"],
      // Vite emits only external module scripts; index.html carries no inline script.
      "script-src": ["'self'"],
      // 'unsafe-inline' for STYLES only: Radix (popper positioning, scroll lock), recharts and
      // sonner set inline style attributes and inject <style> elements at run time. Injected
      // styles cannot run script; scripts stay 'self' only.
      "style-src": ["'self'", "'unsafe-inline'"],
      "img-src": ["'self'", "data:"],
      "font-src": ["'self'", "data:"],
      // The API and the realtime socket (/ws) on this same origin.
      "connect-src": ["'self'", ...socketSources(request)],
      "object-src": ["'none'"],
      "frame-ancestors": ["'none'"],
      "base-uri": ["'self'"],
      "form-action": ["'self'"],
    },
  };
}

/**
 * Registers the security headers on `app` (call before any route). Every answer except /v1 gets
 * them, the static files and the SPA fallback included.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    // Applied by the hook below, so /v1 can be left out without touching the bridge's routes.
    global: false,
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: false,
  });
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith(BARE_PREFIX)) return;
    reply.helmet({
      contentSecurityPolicy: contentSecurityPolicyFor(request),
      ...(request.protocol === "https" ? { strictTransportSecurity: HSTS } : {}),
    });
    void reply.header("permissions-policy", PERMISSIONS_POLICY);
  });
}

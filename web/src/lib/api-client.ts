import type { QueryFunction } from "@tanstack/react-query";
import { getAuthToken } from "./storage";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

function authHeaders(): Record<string, string> {
  const token = getAuthToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** §8: a non-OK response becomes `Error("<status>: <body text or status text>")`. */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/** §7: JSON responses are parsed, anything else is returned as raw text. */
async function readBody(res: Response): Promise<unknown> {
  const contentType = res.headers.get("content-type") ?? "";
  if (contentType.includes("application/json")) {
    const text = await res.text();
    return text ? (JSON.parse(text) as unknown) : null;
  }
  return res.text();
}

/**
 * §7 calling convention: sends `Authorization: Bearer <auth_token>` when a token is stored,
 * always includes cookies, and sends `body` (when given) as JSON.
 *
 * @returns the parsed JSON response (typed by the caller as `T`) or its raw text.
 * @throws Error with message `${status}: ${bodyText || statusText}` on any non-OK status.
 */
export async function apiRequest<T = unknown>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "include",
  });
  await throwIfNotOk(res);
  return (await readBody(res)) as T;
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * §7 default query function: GET to the query key parts joined with "/". With
 * `on401: "returnNull"` a 401 yields `null` instead of an error.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join("/"), { headers: authHeaders(), credentials: "include", signal });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await readBody(res)) as T;
  };
}

const STATUS_PREFIX = /^\d{3}: /;

/**
 * Extracts the server's message from an `apiRequest` error (`"NNN: {"error": "..."}"`),
 * for §8's "server message or '<fallback>'" toasts. Returns `fallback` for anything else.
 */
export function errorMessageFrom(error: unknown, fallback: string): string {
  if (!(error instanceof Error) || !STATUS_PREFIX.test(error.message)) return fallback;
  try {
    const body = JSON.parse(error.message.replace(STATUS_PREFIX, "")) as unknown;
    if (body && typeof body === "object" && "error" in body && typeof body.error === "string" && body.error) {
      return body.error;
    }
  } catch {
    // Not JSON: fall through to the fallback.
  }
  return fallback;
}

/** One field problem of a 400 answer `{error, issues:[{path, message}]}` (path dotted, e.g. "channels.email.recipients"). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The field problems of an `apiRequest` error carrying a 400 body; empty for anything else. */
export function fieldIssuesFrom(error: unknown): FieldIssue[] {
  if (!(error instanceof Error) || !STATUS_PREFIX.test(error.message)) return [];
  try {
    const body = JSON.parse(error.message.replace(STATUS_PREFIX, "")) as { issues?: unknown };
    if (!Array.isArray(body.issues)) return [];
    return body.issues.filter((issue): issue is FieldIssue => {
      const candidate = issue as Partial<FieldIssue> | null;
      return typeof candidate?.path === "string" && typeof candidate.message === "string";
    });
  } catch {
    return [];
  }
}

/** The HTTP status of an `apiRequest` / query error, or null when it is not one. */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : null;
}

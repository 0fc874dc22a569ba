import type { QueryFunction } from "@tanstack/react-query";
import { getAuthToken } from "./storage";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

function authHeaders(): Record<string, string> {
  const token = getAuthToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** One field problem of a 400 answer `{error, issues:[{path, message}]}` (path dotted, e.g. "channels.email.recipients"). */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * A non-OK answer of the API, as data (conventions "errors cross the wire as data"). `message`
 * stays exactly `"<status>: <body text or status text>"` (spec §8); the server's JSON body
 * `{error, code?, issues?}` is read once into `reason` (its `error`), `code` and `issues`, so
 * callers read fields instead of parsing the message. A body that is not that JSON leaves
 * `reason`/`code` null and `issues` empty.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly reason: string | null;
  readonly issues: FieldIssue[];
  /** The whole JSON body (for answers carrying more than the error, e.g. sync's 409 plan_changed); null when not JSON. */
  readonly body: unknown;
  constructor(status: number, bodyText: string) {
    super(`${status}: ${bodyText}`);
    this.name = "ApiError";
    this.status = status;
    const body = parseErrorBody(bodyText);
    this.code = body.code;
    this.reason = body.reason;
    this.issues = body.issues;
    this.body = body.body;
  }
}

function parseErrorBody(text: string): { code: string | null; reason: string | null; issues: FieldIssue[]; body: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return { code: null, reason: null, issues: [], body: null };
  }
  if (!body || typeof body !== "object") return { code: null, reason: null, issues: [], body };
  const record = body as Record<string, unknown>;
  const issues = Array.isArray(record.issues)
    ? record.issues.filter((issue): issue is FieldIssue => {
        const candidate = issue as Partial<FieldIssue> | null;
        return typeof candidate?.path === "string" && typeof candidate.message === "string";
      })
    : [];
  return {
    code: typeof record.code === "string" && record.code ? record.code : null,
    reason: typeof record.error === "string" && record.error ? record.error : null,
    issues,
    body,
  };
}

/** §8: a non-OK response becomes `ApiError` with message `"<status>: <body text or status text>"`. */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new ApiError(res.status, text);
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
 * @throws ApiError (message `${status}: ${bodyText || statusText}`) on any non-OK status.
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

/**
 * The `ApiError` of a failed call, or null. A plain `Error("<status>: <body>")` (thrown by code
 * older than `ApiError`, or built by a test) is read the same way, so every helper below agrees.
 */
export function asApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  return match ? new ApiError(Number(match[1]), match[2] ?? "") : null;
}

/**
 * The server's message of an `apiRequest` / query error (`ApiError.reason`), for §8's "server
 * message or '<fallback>'" toasts. Returns `fallback` for anything else.
 */
export function errorMessageFrom(error: unknown, fallback: string): string {
  return asApiError(error)?.reason ?? fallback;
}

/**
 * What the server (or a 200 answer the app judged a failure) said went wrong, for a person: the
 * `reason` of a 4xx `ApiError`, or the string `reason` an app-made Error carries (e.g. the alert
 * test's failed channels). A 5xx or a network failure has none: "Internal server error" tells
 * nobody more than the spec's sentence.
 */
export function failureReason(error: unknown): string | null {
  const apiError = asApiError(error);
  if (apiError) return apiError.status < 500 ? apiError.reason : null;
  if (error instanceof Error && "reason" in error && typeof error.reason === "string" && error.reason) return error.reason;
  return null;
}

/**
 * A failure toast's text: the spec's sentence (§8, kept word for word) followed by the reason
 * (`failureReason`) when there is one: "Failed to add slave account. An account with this number
 * already exists."
 */
export function failureText(specText: string, error: unknown): string {
  const reason = failureReason(error);
  if (!reason || reason === specText) return specText;
  const lead = /[.!?]$/.test(specText) ? specText : `${specText}.`;
  return `${lead} ${/[.!?]$/.test(reason) ? reason : `${reason}.`}`;
}

/** The field problems of an `apiRequest` error carrying a 400 body; empty for anything else. */
export function fieldIssuesFrom(error: unknown): FieldIssue[] {
  return asApiError(error)?.issues ?? [];
}

/** The HTTP status of an `apiRequest` / query error, or null when it is not one. */
export function errorStatus(error: unknown): number | null {
  return asApiError(error)?.status ?? null;
}

/** The server's error code (`conflict`, `forbidden`, `validation_failed`, ...) of an `apiRequest` error, or null. */
export function errorCode(error: unknown): string | null {
  return asApiError(error)?.code ?? null;
}

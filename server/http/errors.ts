/**
 * One error type for everything a client may cause, mapped once to an HTTP status (conventions
 * habit 5). Anything that is not an AppError becomes a 500 with no detail for the client.
 */
import type { ErrorResponse } from "#contract";

export const ERROR_STATUS = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  missing_headers: 401,
  unknown_key: 401,
  key_disabled: 401,
  timestamp_out_of_window: 401,
  bad_signature: 401,
  forbidden: 403,
  forbidden_scope: 403,
  forbidden_origin: 403,
  not_found: 404,
  conflict: 409,
  replayed: 409,
  in_flight: 409,
  login_mismatch: 409,
  preview_changed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  rate_limited: 429,
  /** Bridge admission shed the request before doing anything (http/admission.ts); Retry-After says when. */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { issues?: ErrorIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorResponse {
    return { error: this.message, code: this.code, ...(this.extra.issues ? { issues: this.extra.issues } : {}) };
  }
}

/**
 * 400 `validation_failed` for a list of issues: one issue reads "path: message", several read
 * "`what` (N problems)". The one wording of every validation answer (http/error-handler.ts for
 * request schemas, features/bridge/poll-reports.ts for a poll's report items).
 */
export function validationFailed(issues: ErrorIssue[], what = "Invalid request"): AppError {
  const first = issues[0];
  const message = issues.length === 1 && first ? `${first.path}: ${first.message}` : `${what} (${issues.length} problems)`;
  return new AppError("validation_failed", message, { issues });
}

/** 404 with a uniform message — also what another tenant's id answers. */
export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const conflict = (message: string) => new AppError("conflict", message);
/** 400 naming one field. */
export const invalidField = (path: string, message: string) =>
  new AppError("validation_failed", message, { issues: [{ path, message }] });
export const unauthorized = (message = "Authentication required") => new AppError("unauthorized", message);

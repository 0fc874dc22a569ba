/**
 * A minimal client of the dashboard API (/api/*) for the demo: JSON bodies, the session token as
 * `Authorization: Bearer`, non-2xx answers thrown as ApiError.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    method: string,
    path: string,
  ) {
    super(`${method} ${path} answered ${status}: ${typeof body === "string" ? body : JSON.stringify(body)}`);
  }

  /** The `code` of a JSON error body (e.g. "conflict", "not_found"). */
  get code(): string | undefined {
    return (this.body as { code?: string } | null)?.code;
  }
}

export class DashboardApi {
  token: string | undefined;

  constructor(readonly baseUrl: string) {}

  get<T>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("POST", path, body);
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>("PUT", path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>("DELETE", path);
  }

  /** Sends one request; resolves with the parsed JSON (or text) of a 2xx answer. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: keep the text for the error message.
    }
    if (!res.ok) throw new ApiError(res.status, parsed, method, path);
    return parsed as T;
  }
}

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, asApiError, errorCode, errorMessageFrom, errorStatus, failureText, fieldIssuesFrom, getQueryFn } from "./api-client";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("apiRequest (§7 calling convention)", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.stubGlobal("localStorage", memoryStorage());
    fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends the stored bearer token, cookies and a JSON body", async () => {
    localStorage.setItem("auth_token", "tok123");
    fetchMock.mockResolvedValue(json({ ok: true }));
    const result = await apiRequest("POST", "/api/accounts", { a: 1 });
    expect(result).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/accounts");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toEqual({ Authorization: "Bearer tok123", "Content-Type": "application/json" });
  });

  it("sends neither token nor content type when there is nothing to send", async () => {
    fetchMock.mockResolvedValue(new Response("plain text", { status: 200, headers: { "content-type": "text/plain" } }));
    const result = await apiRequest("DELETE", "/api/accounts/1");
    expect(result).toBe("plain text");
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toEqual({});
    expect(init.body).toBeUndefined();
    expect(init.credentials).toBe("include");
  });

  it("throws 'status: body' on a non-OK response", async () => {
    fetchMock.mockResolvedValue(json({ error: "Email already registered" }, 409));
    await expect(apiRequest("POST", "/api/auth/register", {})).rejects.toThrow('409: {"error":"Email already registered"}');
  });

  it("falls back to the status text when the body is empty", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("503: Service Unavailable");
  });
});

describe("getQueryFn", () => {
  beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  const context = (queryKey: readonly unknown[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined, client: undefined }) as unknown as Parameters<
      ReturnType<typeof getQueryFn>
    >[0];

  it("GETs the query key joined with slashes", async () => {
    const fetchMock = vi.fn().mockResolvedValue(json([1, 2]));
    vi.stubGlobal("fetch", fetchMock);
    const data = await getQueryFn({ on401: "throw" })(context(["/api/accounts", "slaves"]));
    expect(data).toEqual([1, 2]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/accounts/slaves");
  });

  it("returns null on 401 in returnNull mode and throws otherwise", async () => {
    vi.stubGlobal("fetch", vi.fn().mockImplementation(() => Promise.resolve(json({ error: "Unauthorized" }, 401))));
    await expect(getQueryFn({ on401: "returnNull" })(context(["/api/auth/me"]))).resolves.toBeNull();
    await expect(getQueryFn({ on401: "throw" })(context(["/api/auth/me"]))).rejects.toThrow(/^401: /);
  });
});

describe("fieldIssuesFrom", () => {
  it("reads the field problems of a 400 answer", () => {
    const body = { error: "Invalid request", issues: [{ path: "slaveAccountId", message: "Slave account not found" }, { path: "x" }] };
    expect(fieldIssuesFrom(new Error(`400: ${JSON.stringify(body)}`))).toEqual([{ path: "slaveAccountId", message: "Slave account not found" }]);
    expect(fieldIssuesFrom(new Error('409: {"error":"exists"}'))).toEqual([]);
    expect(fieldIssuesFrom(new Error("500: Internal Server Error"))).toEqual([]);
    expect(fieldIssuesFrom("boom")).toEqual([]);
  });
});

describe("errorMessageFrom", () => {
  it("returns the JSON error field of an API error", () => {
    expect(errorMessageFrom(new Error('400: {"error":"Invalid credentials"}'), "fallback")).toBe("Invalid credentials");
  });
  it("returns the fallback for anything else", () => {
    expect(errorMessageFrom(new Error("500: Internal Server Error"), "fallback")).toBe("fallback");
    expect(errorMessageFrom(new Error('400: {"message":"x"}'), "fallback")).toBe("fallback");
    expect(errorMessageFrom(new Error("Failed to fetch"), "fallback")).toBe("fallback");
    expect(errorMessageFrom("nope", "fallback")).toBe("fallback");
  });
});

describe("errorStatus", () => {
  it("reads the status prefix", () => {
    expect(errorStatus(new Error("404: Not Found"))).toBe(404);
    expect(errorStatus(new Error("boom"))).toBeNull();
  });
});

describe("ApiError (errors as data)", () => {
  beforeEach(() => vi.stubGlobal("localStorage", memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it("is what apiRequest throws: status, code, reason and issues read from the body, message kept as §8 says", async () => {
    const body = { error: "accountNumber: already a slave", code: "validation_failed", issues: [{ path: "accountNumber", message: "already a slave" }] };
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(body, 400)));
    const error = await apiRequest("POST", "/api/accounts", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe("validation_failed");
    expect(apiError.reason).toBe("accountNumber: already a slave");
    expect(apiError.issues).toEqual([{ path: "accountNumber", message: "already a slave" }]);
    expect(apiError.body).toEqual(body);
    expect(errorCode(apiError)).toBe("validation_failed");
  });

  it("has no code, reason or issues when the body is not the server's JSON", () => {
    const error = new ApiError(502, "Bad Gateway");
    expect(error.message).toBe("502: Bad Gateway");
    expect([error.code, error.reason, error.issues]).toEqual([null, null, []]);
  });

  it("reads a plain 'NNN: body' Error the same way, and nothing else", () => {
    expect(asApiError(new Error('409: {"error":"Taken","code":"conflict"}'))).toMatchObject({ status: 409, code: "conflict", reason: "Taken" });
    expect(asApiError(new Error("Failed to fetch"))).toBeNull();
    expect(asApiError("409")).toBeNull();
  });
});

describe("failureText (§8 toast + the server's reason)", () => {
  it("keeps the spec's sentence and adds a 4xx reason", () => {
    const error = new ApiError(409, JSON.stringify({ error: "Account number 123 is already a slave", code: "conflict" }));
    expect(failureText("Failed to add slave account.", error)).toBe("Failed to add slave account. Account number 123 is already a slave.");
    const smtp = new ApiError(400, JSON.stringify({ error: "SMTP is not configured on this server.", code: "bad_request" }));
    expect(failureText("Failed to send test alert", smtp)).toBe("Failed to send test alert. SMTP is not configured on this server.");
    // A failure the app found in a 200 answer carries its own reason.
    const channels = Object.assign(new Error("Channel failure"), { reason: "email: Email delivery needs SMTP_URL to be set on the server" });
    expect(failureText("Failed to send test alert", channels)).toBe("Failed to send test alert. email: Email delivery needs SMTP_URL to be set on the server.");
  });

  it("adds nothing for a 5xx, a network error or a body without a reason", () => {
    expect(failureText("Failed to add slave account.", new ApiError(500, '{"error":"Internal server error","code":"internal"}'))).toBe("Failed to add slave account.");
    expect(failureText("Failed to add slave account.", new TypeError("Failed to fetch"))).toBe("Failed to add slave account.");
    expect(failureText("Failed to add slave account.", new ApiError(404, "Not Found"))).toBe("Failed to add slave account.");
  });
});

/** Registers an organisation and signs in through the public API; returns an authenticated client. */
import { randomBytes } from "node:crypto";
import type { LoginResponse, RegisterRequest } from "#contract";
import { Api } from "./http.ts";

export interface SignedIn {
  api: Api;
  login: LoginResponse;
  email: string;
  password: string;
  slug: string;
}

export function uniqueSuffix(): string {
  return randomBytes(4).toString("hex");
}

export async function signUp(baseUrl: string, overrides: Partial<RegisterRequest> = {}): Promise<SignedIn> {
  const s = uniqueSuffix();
  const password = overrides.password ?? "correct horse battery staple";
  const body: RegisterRequest = {
    email: `trader-${s}@example.com`,
    firstName: "Ada",
    lastName: "Lovelace",
    tenantName: `Org ${s}`,
    tenantSlug: `org-${s}`,
    ...overrides,
    password,
    confirmPassword: overrides.confirmPassword ?? password,
  };
  const api = new Api(baseUrl);
  const reg = await api.post("/api/auth/register", body);
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const res = await api.post<LoginResponse>("/api/auth/login", { email: body.email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { api: api.withToken(res.body.token), login: res.body, email: body.email, password, slug: body.tenantSlug };
}

import type { LoginResponse, User } from "#contract";

/** Browser storage items of spec §3: auth_token, tenant_id, user, theme. */
export const STORAGE_KEYS = {
  authToken: "auth_token",
  tenantId: "tenant_id",
  user: "user",
  theme: "theme",
} as const;

// Storage can be unavailable (privacy modes, sandboxed frames); treat that as "nothing stored".
function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Ignored: see read().
  }
}

/** The stored bearer token (item `auth_token`), or null. */
export function getAuthToken(): string | null {
  return read(STORAGE_KEYS.authToken);
}

/** The stored user (item `user`, JSON), or null when absent or unreadable. */
export function getStoredUser(): User | null {
  const raw = read(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
}

/** §4 login: stores auth_token, tenant_id and user (JSON). */
export function storeSession(session: LoginResponse): void {
  write(STORAGE_KEYS.authToken, session.token);
  write(STORAGE_KEYS.tenantId, session.tenant.id);
  write(STORAGE_KEYS.user, JSON.stringify(session.user));
}

/** §4 logout / failed verification: removes auth_token, tenant_id and user. */
export function clearSession(): void {
  write(STORAGE_KEYS.authToken, null);
  write(STORAGE_KEYS.tenantId, null);
  write(STORAGE_KEYS.user, null);
}

/** Stored theme (item `theme`); anything but 'light' means the default, 'dark' (§1). */
export function getStoredTheme(): "light" | "dark" {
  return read(STORAGE_KEYS.theme) === "light" ? "light" : "dark";
}

/** Persists the theme choice under item `theme`. */
export function storeTheme(theme: "light" | "dark"): void {
  write(STORAGE_KEYS.theme, theme);
}

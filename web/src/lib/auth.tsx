import type { LoginResponse, MeResponse, Tenant, User } from "#contract";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { apiRequest } from "./api-client";
import { clearSession, getAuthToken, storeSession } from "./storage";

/** §4 auth state machine. */
export type AuthState =
  | { status: "loading" }
  | { status: "authenticated"; user: User; tenant: Tenant }
  | { status: "unauthenticated" };

export interface AuthValue {
  state: AuthState;
  /** Stores auth_token, tenant_id and user, and enters the authenticated state (§4). */
  login: (session: LoginResponse) => void;
  /** Revokes the session server-side (failure ignored), clears storage and cached data (§4). */
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

/** How often the signed-in user (role, two-factor) is read again while the page is visible, ms. */
const USER_REFRESH_MS = 60_000;

/**
 * §4: starts in `loading` when a token is stored and verifies it with GET /api/auth/me;
 * without a token, or when verification fails, the stored items are cleared and the user is
 * unauthenticated.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() =>
    getAuthToken() ? { status: "loading" } : { status: "unauthenticated" },
  );
  const verifying = state.status === "loading";

  useEffect(() => {
    if (!verifying) return;
    let cancelled = false;
    apiRequest<MeResponse>("GET", "/api/auth/me").then(
      (me) => {
        if (!cancelled) setState({ status: "authenticated", user: me.user, tenant: me.tenant });
      },
      () => {
        if (cancelled) return;
        clearSession();
        setState({ status: "unauthenticated" });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [verifying]);

  // A member's role (or the organisation's pause) may change elsewhere: read the signed-in user
  // again when the page comes back into view and once a minute while it is visible, so controls a
  // new role may (not) use follow without a reload. The server enforces the role on every request.
  const signedIn = state.status === "authenticated";
  useEffect(() => {
    if (!signedIn) return;
    let cancelled = false;
    const refresh = () => {
      if (document.visibilityState !== "visible") return;
      apiRequest<MeResponse>("GET", "/api/auth/me").then(
        (me) => {
          if (cancelled) return;
          setState((prev) =>
            prev.status === "authenticated" && (prev.user.role !== me.user.role || prev.user.twoFactorEnabled !== me.user.twoFactorEnabled)
              ? { status: "authenticated", user: me.user, tenant: prev.tenant }
              : prev,
          );
        },
        // A failed refresh changes nothing here: an ended session is handled where requests fail.
        () => undefined,
      );
    };
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("focus", refresh);
    const timer = window.setInterval(refresh, USER_REFRESH_MS);
    return () => {
      cancelled = true;
      document.removeEventListener("visibilitychange", refresh);
      window.removeEventListener("focus", refresh);
      window.clearInterval(timer);
    };
  }, [signedIn]);

  const login = useCallback(
    (session: LoginResponse) => {
      storeSession(session);
      queryClient.clear();
      setState({ status: "authenticated", user: session.user, tenant: session.tenant });
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await apiRequest("POST", "/api/auth/logout");
    } catch {
      // §4: logging out never fails for the user; the local session is dropped regardless.
    }
    clearSession();
    queryClient.clear();
    setState({ status: "unauthenticated" });
  }, [queryClient]);

  const value = useMemo(() => ({ state, login, logout }), [state, login, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The §4 auth state and its transitions. */
export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}

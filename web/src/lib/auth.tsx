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

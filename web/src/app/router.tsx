import { useEffect } from "react";
import { Navigate, Route, Routes, useLocation, useSearchParams } from "react-router";
import { FullPageSpinner } from "@/components/ui/spinner";
import { ForgotPasswordPage, LoginPage, loginPathFor, RegisterPage, ResetPasswordPage, safeNextPath } from "@/features/auth";
import { AcceptInvitationPage } from "@/features/members";
import { useAuth } from "@/lib/auth";
import { RealtimeProvider } from "@/lib/realtime";
import {
  AlertsPage,
  AnalyticsPage,
  BridgePage,
  LogsPage,
  MappingsPage,
  MasterAccountPage,
  OverviewPage,
  RiskPage,
  SettingsPage,
  SlaveAccountsPage,
  TradesPage,
} from "./lazy-pages";
import { NotFoundPage } from "./not-found-page";
import { routeTitle } from "./route-titles";
import { AppShell } from "./shell/app-shell";

/**
 * §2 route table, chosen by the §4 auth state: a spinner while loading; the three public
 * screens (anything else → /login) when signed out; the shell with the live socket when signed in.
 * The document title follows the route (WCAG 2.4.2), e.g. "Live Trades · CopyBridge".
 */
export function AppRoutes() {
  const { state } = useAuth();
  const { pathname } = useLocation();
  const signedIn = state.status === "authenticated";
  const loading = state.status === "loading";

  useEffect(() => {
    if (!loading) document.title = routeTitle(pathname, signedIn);
  }, [pathname, signedIn, loading]);

  if (state.status === "loading") return <FullPageSpinner />;

  if (state.status === "unauthenticated") {
    return (
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
        <Route path="*" element={<ToLogin />} />
      </Routes>
    );
  }

  return (
    <RealtimeProvider>
      <Routes>
        <Route path="/login" element={<AfterSignIn />} />
        <Route path="/register" element={<Navigate to="/" replace />} />
        <Route path="/forgot-password" element={<Navigate to="/" replace />} />
        <Route path="/reset-password" element={<Navigate to="/" replace />} />
        <Route path="/accept-invitation" element={<Navigate to="/" replace />} />
        <Route element={<AppShell />}>
          <Route index element={<OverviewPage />} />
          <Route path="master" element={<MasterAccountPage />} />
          <Route path="slaves" element={<SlaveAccountsPage />} />
          <Route path="trades" element={<TradesPage />} />
          <Route path="mappings" element={<MappingsPage />} />
          <Route path="risk" element={<RiskPage />} />
          <Route path="analytics" element={<AnalyticsPage />} />
          <Route path="alerts" element={<AlertsPage />} />
          <Route path="logs" element={<LogsPage />} />
          <Route path="bridge" element={<BridgePage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </RealtimeProvider>
  );
}

/** Signed out on a dashboard path: to /login, remembering the path (issue 16: land on the page asked for). */
function ToLogin() {
  const { pathname, search } = useLocation();
  return <Navigate to={loginPathFor(pathname + search)} replace />;
}

/** Signed in on /login (just now, or by bookmark): to its `next` path when safe, else / (spec §2). */
function AfterSignIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeNextPath(params.get("next"))} replace />;
}

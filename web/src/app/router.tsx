import { useEffect } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { FullPageSpinner } from "@/components/ui/spinner";
import { ForgotPasswordPage, LoginPage, RegisterPage } from "@/features/auth";
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
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Routes>
    );
  }

  return (
    <RealtimeProvider>
      <Routes>
        <Route path="/login" element={<Navigate to="/" replace />} />
        <Route path="/register" element={<Navigate to="/" replace />} />
        <Route path="/forgot-password" element={<Navigate to="/" replace />} />
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

import { type ComponentType, lazy } from "react";

/** React.lazy for a module's named page export (features export pages by name). */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

// Each screen is its own chunk so heavy screen-only dependencies (charts) never load up front.
export const OverviewPage = lazyPage(() => import("@/features/accounts"), "OverviewPage");
export const MasterAccountPage = lazyPage(() => import("@/features/accounts"), "MasterAccountPage");
export const SlaveAccountsPage = lazyPage(() => import("@/features/accounts"), "SlaveAccountsPage");
export const TradesPage = lazyPage(() => import("@/features/trades"), "TradesPage");
export const MappingsPage = lazyPage(() => import("@/features/mappings"), "MappingsPage");
export const RiskPage = lazyPage(() => import("@/features/risk"), "RiskPage");
export const AnalyticsPage = lazyPage(() => import("@/features/analytics"), "AnalyticsPage");
export const AlertsPage = lazyPage(() => import("@/features/alerts"), "AlertsPage");
export const LogsPage = lazyPage(() => import("@/features/logs"), "LogsPage");
export const BridgePage = lazyPage(() => import("@/features/bridge"), "BridgePage");
export const SettingsPage = lazyPage(() => import("@/features/settings"), "SettingsPage");

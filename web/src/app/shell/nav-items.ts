import type { LucideIcon } from "lucide-react";
import {
  Activity,
  ArrowLeftRight,
  Bell,
  ChartColumn,
  Crown,
  LayoutDashboard,
  ScrollText,
  Server,
  Settings,
  Shield,
  Users,
} from "lucide-react";

export interface NavItem {
  label: string;
  path: string;
  icon: LucideIcon;
  /** `nav-<route name>` test id. */
  testId: string;
}

const item = (label: string, path: string, icon: LucideIcon): NavItem => ({
  label,
  path,
  icon,
  testId: `nav-${label.toLowerCase().replace(/\s+/g, "-")}`,
});

/** §2 sidebar entries, in the spec's order. */
export const NAV_ITEMS: readonly NavItem[] = [
  item("Overview", "/", LayoutDashboard),
  item("Master Account", "/master", Crown),
  item("Slave Accounts", "/slaves", Users),
  item("Live Trades", "/trades", Activity),
  item("Symbol Mapping", "/mappings", ArrowLeftRight),
  item("Risk Controls", "/risk", Shield),
  item("Analytics", "/analytics", ChartColumn),
  item("Alerts", "/alerts", Bell),
  item("Audit Logs", "/logs", ScrollText),
  item("Bridge Server", "/bridge", Server),
  item("Settings", "/settings", Settings),
];

/** §2 active rule: the route equals the path, or (non-root routes) is a prefix of it. */
export function isNavItemActive(route: string, pathname: string): boolean {
  return route === pathname || (route !== "/" && pathname.startsWith(route));
}

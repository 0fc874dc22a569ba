import { LogOut } from "lucide-react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { Separator } from "@/components/ui/separator";
import { useAuth } from "@/lib/auth";
import { cn } from "@/lib/utils";
import { Brand } from "@/components/brand";
import { CopyPausedBadge } from "@/components/copy-paused-banner";
import { NAV_ITEMS, isNavItemActive } from "./nav-items";
import { PanicStopButton } from "./panic-stop-button";
import { ThemeToggle } from "./theme-toggle";

/**
 * §2 sidebar body: logo and name, tenant, navigation, 'LOGGED IN AS' user, LOGOUT, theme
 * toggle and PANIC STOP, with the "Copying paused" state above it while the organisation is paused. `onNavigate` lets the mobile drawer close after a choice.
 */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { state, logout } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (state.status !== "authenticated") return null;
  const { user, tenant } = state;

  const handleLogout = async () => {
    await logout();
    await navigate("/login", { replace: true });
  };

  return (
    <div className="flex h-full flex-col bg-sidebar text-sidebar-foreground">
      <div className="px-4 pt-5 pb-4">
        <Brand />
        <p className="mt-2 truncate text-xs text-sidebar-muted" data-testid="text-tenant-name" title={tenant.name}>
          {tenant.name}
        </p>
      </div>
      <Separator className="bg-sidebar-border" />
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-3">
        <ul className="flex flex-col gap-0.5">
          {NAV_ITEMS.map(({ label, path, icon: Icon, testId }) => {
            const active = isNavItemActive(path, pathname);
            return (
              <li key={path}>
                <NavLink
                  to={path}
                  end={path === "/"}
                  onClick={onNavigate}
                  data-testid={testId}
                  aria-current={active ? "page" : undefined}
                  data-active={active}
                  className={cn(
                    "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-sidebar-accent",
                    active ? "bg-sidebar-accent text-sidebar-foreground" : "text-sidebar-muted hover:text-sidebar-foreground",
                  )}
                >
                  <Icon className={cn("size-4 shrink-0", active && "text-primary")} aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <Separator className="bg-sidebar-border" />
      <div className="flex flex-col gap-3 p-4">
        <div className="min-w-0">
          <p className="text-[11px] font-semibold tracking-wider text-sidebar-muted">LOGGED IN AS</p>
          <p className="truncate text-sm font-medium" data-testid="text-user-name">
            {user.firstName} {user.lastName}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Button variant="outline" className="flex-1" onClick={handleLogout} data-testid="button-logout">
            <LogOut />
            LOGOUT
          </Button>
          <ThemeToggle />
        </div>
        <CopyPausedBadge />
        <PanicStopButton />
      </div>
    </div>
  );
}

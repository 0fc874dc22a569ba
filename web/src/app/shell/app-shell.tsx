import { Menu } from "lucide-react";
import { Suspense, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { useCopyPauseLiveSync } from "@/lib/copy-pause";
import { useSyncLiveUpdates } from "@/lib/sync/sync-queries";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/use-media-query";
import { Brand } from "@/components/brand";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/skip-link";
import { Sidebar } from "./sidebar";
import { ScreenErrorBoundary } from "./screen-error-boundary";

/**
 * §2 authenticated shell: a permanent 64-unit sidebar from md up; below md a top bar whose menu
 * button opens the same sidebar as a drawer. Only one sidebar is mounted at a time, so its test
 * ids stay unique. A 'Skip to content' link comes first and moves focus to <main id="main">.
 */
export function AppShell() {
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The organisation's copy pause (sidebar badge, Overview banner) follows tenant_updated.
  useCopyPauseLiveSync();
  // Sync status of cards and tabs (issue 14) follows sync_updated.
  useSyncLiveUpdates();

  return (
    <div className="flex h-dvh overflow-hidden">
      <SkipLink />
      {isDesktop ? (
        <aside className="w-64 shrink-0 border-r border-sidebar-border" data-testid="sidebar">
          <Sidebar />
        </aside>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        {isDesktop ? null : (
          <header className="flex h-14 shrink-0 items-center gap-3 border-b bg-sidebar px-3">
            <Button variant="ghost" size="icon" onClick={() => setDrawerOpen(true)} aria-label="Open menu" data-testid="button-menu">
              <Menu className="size-5" />
            </Button>
            <Brand />
          </header>
        )}
        {/* tabIndex -1: the skip link focuses it; it is the page's one scrolling region, so keyboard scrolling starts here. */}
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 overflow-y-auto focus:outline-none">
          <div className="mx-auto w-full max-w-7xl p-4 md:p-6 lg:p-8">
            <ScreenErrorBoundary resetKey={location.pathname}>
              <Suspense
                fallback={
                  <div className="flex justify-center py-24">
                    <Spinner />
                  </div>
                }
              >
                <Outlet />
              </Suspense>
            </ScreenErrorBoundary>
          </div>
        </main>
      </div>
      {isDesktop ? null : (
        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SheetContent side="left" className="w-64 p-0" data-testid="sidebar">
            <SheetTitle className="sr-only">Navigation</SheetTitle>
            <SheetDescription className="sr-only">Main navigation and account controls</SheetDescription>
            <Sidebar onNavigate={() => setDrawerOpen(false)} />
          </SheetContent>
        </Sheet>
      )}
    </div>
  );
}

import { NAV_ITEMS } from "./shell/nav-items";

/** Product name appended to every document title ("Live Trades · CopyBridge"). */
export const PRODUCT_NAME = "CopyBridge";

/** Titles of the public screens (WCAG 2.4.2: each route says where the user is). */
const PUBLIC_TITLES: Readonly<Record<string, string>> = {
  "/login": "Sign in",
  "/register": "Create account",
  "/forgot-password": "Forgot password",
  "/reset-password": "Reset password",
  "/accept-invitation": "Accept invitation",
};

/**
 * The document title of `pathname` for the given auth state: the sidebar label of its screen
 * (the §2 names) or the public screen's name, then " · CopyBridge"; an unknown signed-in path is
 * the §2 'Page Not Found'. Signed out, any other path redirects to /login, so it is titled as such.
 */
export function routeTitle(pathname: string, signedIn: boolean): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  let name: string;
  if (!signedIn) {
    name = PUBLIC_TITLES[path] ?? PUBLIC_TITLES["/login"]!;
  } else {
    // Signed in, the public routes redirect to Overview.
    const screen = NAV_ITEMS.find((item) => item.path === path) ?? (path in PUBLIC_TITLES ? NAV_ITEMS[0] : undefined);
    name = screen?.label ?? "Page Not Found";
  }
  return `${name} · ${PRODUCT_NAME}`;
}

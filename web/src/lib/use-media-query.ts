import { useCallback, useSyncExternalStore } from "react";

/** Whether a CSS media query matches, updated live (false where matchMedia is unavailable). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `md` breakpoint: the sidebar is permanent from here up, a drawer below. */
export const DESKTOP_QUERY = "(min-width: 768px)";

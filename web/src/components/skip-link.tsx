import type { MouseEvent } from "react";

/** Id of the element the skip link moves focus to: the page's <main>, which needs tabIndex={-1}. */
export const MAIN_CONTENT_ID = "main";

/**
 * WCAG 2.4.1 bypass block: the first focus stop of every page, hidden until focused, reading
 * 'Skip to content'. Focus is moved by hand rather than by the #main fragment alone, because a
 * fragment only scrolls in some browsers and the router would keep the hash in the URL.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:outline-none focus:ring-2 focus:ring-ring focus:ring-offset-2 focus:ring-offset-background"
      data-testid="link-skip-to-content"
    >
      Skip to content
    </a>
  );
}

import { useRef } from "react";

/** The Content props useReturnFocus fills in. */
export interface ReturnFocusHandlers {
  onOpenAutoFocus: (event: Event) => void;
  onCloseAutoFocus: (event: Event) => void;
}

/**
 * Focus return for Radix dialogs, sheets and alert dialogs (WCAG 2.4.3). Radix gives focus back
 * to its Trigger on close, but most of our dialogs are opened from state (a button's onClick, a
 * switch, a form) and have no Trigger, so focus fell to <body>. This remembers the element that
 * had focus when the content opened (Radix fires onOpenAutoFocus before it moves focus inside)
 * and returns focus there on close; when that element is gone or disabled, focus goes to <main>
 * rather than being lost.
 *
 * A caller's own handlers run first; a caller's `preventDefault()` on close keeps its own choice.
 */
export function useReturnFocus(own: Partial<ReturnFocusHandlers> = {}): ReturnFocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      own.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event) => {
      own.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      event.preventDefault();
      const previous = opener.current;
      opener.current = null;
      const target = previous?.isConnected && !previous.matches(":disabled") ? previous : document.querySelector<HTMLElement>("main");
      target?.focus({ preventScroll: true });
    },
  };
}

/**
 * The few browser globals the suites touch inside `page.evaluate` callbacks. The repository's
 * Node tsconfig has no DOM library (and must not get one for server code), so callbacks cast
 * `globalThis` to this type; the cast is erased and the code runs in the page.
 */
export interface PageStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface PageElement {
  classList: { contains(name: string): boolean };
}

interface Canvas2d {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
}

export interface PageWindow {
  localStorage: PageStorage;
  document: {
    documentElement: PageElement;
    fonts: { ready: Promise<unknown> };
    querySelector(selector: string): { scrollWidth: number; clientWidth: number } | null;
    createElement(tag: "canvas"): { width: number; height: number; getContext(kind: "2d"): Canvas2d | null };
  };
  getComputedStyle(element: unknown): { getPropertyValue(property: string): string };
  requestAnimationFrame(callback: () => void): number;
  /** Marker set by a test to prove that the page was not reloaded. */
  __e2eMarker?: string;
}

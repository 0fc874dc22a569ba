/**
 * Headless Chromium for the browser suites (playwright-core, the system's Chromium): one browser
 * and one fresh context per test file, pages at a fixed viewport, a collector of console errors
 * and failed requests, and screenshots into screenshots/ (gitignored).
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PageWindow } from "./page-globals.ts";
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page, type Request, type Response } from "playwright-core";

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../screenshots/", import.meta.url));

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Launches the system Chromium headless (CHROMIUM_PATH overrides /usr/bin/chromium). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A fresh context (empty storage and cookies) whose relative `page.goto("/x")` resolve against `baseUrl`. */
export async function newContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORTS.desktop, reducedMotion: "reduce" });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** One thing that went wrong in the page: a console error, an uncaught exception or a failed request. */
export interface PageProblem {
  kind: "console" | "pageerror" | "requestfailed" | "http";
  text: string;
  /** The request URL (requestfailed/http) or the console message's source URL. */
  url: string;
  status?: number;
  method?: string;
}

/** A matcher for problems a test expects (e.g. the documented 404 of GET /api/accounts/master). */
export type ProblemFilter = (problem: PageProblem) => boolean;

/** Collects console errors, uncaught exceptions, failed requests and HTTP >= 400 responses of one page. */
export class Diagnostics {
  readonly problems: PageProblem[] = [];
  /** fetch/XHR/document requests started and not yet finished or failed. */
  private readonly inflight = new Set<Request>();
  private lastActivity = Date.now();

  constructor(page: Page) {
    const track = (req: Request, on: boolean) => {
      if (!["fetch", "xhr", "document", "script", "stylesheet"].includes(req.resourceType())) return;
      if (on) this.inflight.add(req);
      else this.inflight.delete(req);
      this.lastActivity = Date.now();
    };
    page.on("request", (req) => track(req, true));
    page.on("requestfinished", (req) => track(req, false));
    page.on("requestfailed", (req) => track(req, false));
    page.on("console", (msg: ConsoleMessage) => {
      if (msg.type() === "error") this.problems.push({ kind: "console", text: msg.text(), url: msg.location().url });
    });
    page.on("pageerror", (error: Error) => this.problems.push({ kind: "pageerror", text: error.stack ?? error.message, url: page.url() }));
    page.on("requestfailed", (req: Request) => {
      const failure = req.failure()?.errorText ?? "failed";
      // A navigation or reload cancels whatever the old page still had in flight: not a defect.
      if (failure === "net::ERR_ABORTED") return;
      this.problems.push({ kind: "requestfailed", text: failure, url: req.url(), method: req.method() });
    });
    page.on("response", (res: Response) => {
      if (res.status() >= 400) {
        this.problems.push({ kind: "http", text: `${res.status()} ${res.statusText()}`, url: res.url(), status: res.status(), method: res.request().method() });
      }
    });
  }

  /** Problems not matched by any of `expected`. */
  unexpected(...expected: ProblemFilter[]): PageProblem[] {
    return this.problems.filter((p) => !expected.some((f) => f(p)) && !isEchoOfExpected(p, this.problems, expected));
  }

  /** Whether no tracked request is in flight and none started or ended within `quietMs`. */
  isQuiet(quietMs: number): boolean {
    return this.inflight.size === 0 && Date.now() - this.lastActivity >= quietMs;
  }

  /** Throws, listing them, when there are problems not matched by `expected`. */
  assertClean(...expected: ProblemFilter[]): void {
    const left = this.unexpected(...expected);
    if (left.length > 0) throw new Error(`unexpected page problems:\n${describeProblems(left)}`);
  }

  /** Forgets everything collected so far. */
  clear(): void {
    this.problems.length = 0;
  }
}

/**
 * Chromium echoes every HTTP error response as a console error "Failed to load resource: the
 * server responded with a status of N"; that echo is expected whenever its response is.
 */
function isEchoOfExpected(problem: PageProblem, all: PageProblem[], expected: ProblemFilter[]): boolean {
  if (problem.kind !== "console") return false;
  const m = /^Failed to load resource: the server responded with a status of (\d+)/.exec(problem.text);
  if (!m) return false;
  const status = Number(m[1]);
  return all.some((p) => p.kind === "http" && p.status === status && p.url === problem.url && expected.some((f) => f(p)));
}

/** Matches an HTTP error response by method, path (exact, without query) and status. */
export function httpError(method: string, path: string, status: number): ProblemFilter {
  return (p) => p.kind === "http" && p.method === method && p.status === status && new URL(p.url).pathname === path;
}

/** §7: GET /api/accounts/master answers 404 while a tenant has no master; the app treats it as "none". */
export const NO_MASTER_YET = httpError("GET", "/api/accounts/master", 404);

/** The page's current path. */
export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Matches a console error starting with `prefix`: a failure the app logs on purpose (§8 "also logged to the console"). */
export function consoleError(prefix: string): ProblemFilter {
  return (p) => p.kind === "console" && p.text.startsWith(prefix);
}

/** Formats problems for an assertion message. */
export function describeProblems(problems: PageProblem[]): string {
  return problems.map((p) => `[${p.kind}] ${p.method ? `${p.method} ` : ""}${p.url} — ${p.text}`).join("\n");
}

export interface OpenedPage {
  page: Page;
  diagnostics: Diagnostics;
}

/** A new page in `context` at the named viewport, with its diagnostics already listening. */
export async function openPage(context: BrowserContext, viewport: ViewportName = "desktop"): Promise<OpenedPage> {
  const page = await context.newPage();
  await page.setViewportSize(VIEWPORTS[viewport]);
  return { page, diagnostics: new Diagnostics(page) };
}

/**
 * Waits until the page has settled: no request in flight for `quietMs`, no "Loading" spinner and
 * web fonts ready. Polls (every 50 ms, up to `timeoutMs`); it never sleeps a fixed time.
 */
export async function settle(page: Page, diagnostics: Diagnostics, { quietMs = 150, timeoutMs = 10_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!diagnostics.isQuiet(quietMs)) {
    if (Date.now() > deadline) throw new Error(`page did not settle within ${timeoutMs} ms (requests still in flight)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.getByRole("status", { name: "Loading" }).first().waitFor({ state: "hidden", timeout: Math.max(1_000, deadline - Date.now()) });
  await page.evaluate(async () => {
    await (globalThis as unknown as PageWindow).document.fonts.ready;
  });
}

/** Saves a viewport screenshot as screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, animations: "disabled", caret: "hide" });
  return path;
}

/** Screenshots every open page as screenshots/FAILED-<prefix>-<test name>-<n>.png (for afterEach on failure). */
export async function screenshotOnFailure(pages: Page[], prefix: string, testName: string): Promise<void> {
  const slug = testName.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60);
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    await screenshot(page, `FAILED-${prefix}-${slug}-${i}`).catch(() => undefined);
  }
}

/** Deletes screenshots/FAILED-<prefix>-*.png left by an earlier run (call once before a suite). */
export function removeFailureScreenshots(prefix: string): void {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const file of readdirSync(SCREENSHOT_DIR)) {
    if (file.startsWith(`FAILED-${prefix}-`)) rmSync(join(SCREENSHOT_DIR, file), { force: true });
  }
}

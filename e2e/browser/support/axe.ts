/**
 * axe-core in the page under test: injects the library (once per document) and runs the WCAG 2.1
 * A/AA rules over the whole document, returning the violations that block users (impact serious
 * or critical) in a form an assertion can print: rule id, impact, help text and the targets.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { PageWindow } from "./page-globals.ts";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core");
let axeSource: string | undefined;

/** The WCAG 2.1 level A and AA rule tags (issue 16: the dashboard targets WCAG 2.1 AA). */
export const WCAG_21_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

/** One failing rule on one screen: which rule, how bad, and the CSS targets of the failing nodes. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
  /** axe's explanation for the first node (e.g. the measured contrast ratio and colours). */
  summary: string;
}

interface AxeResultShape {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
}

/**
 * Runs axe over `page`'s document with the WCAG 2.1 AA tags and returns the serious and critical
 * violations (minor and moderate ones are not gating). Injects axe-core when the document does
 * not have it yet (a full navigation drops it).
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const findings = await runAxe(page, { type: "tag", values: [...WCAG_21_AA_TAGS] });
  return findings.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Axe's document-structure rules, whatever their impact (they are "moderate", so the WCAG run
 * above does not gate on them): headings that skip a level, a page without an h1, and a page
 * without exactly one <main> landmark.
 */
export function structureViolations(page: Page): Promise<AxeFinding[]> {
  return runAxe(page, { type: "rule", values: ["heading-order", "page-has-heading-one", "landmark-one-main", "landmark-no-duplicate-main"] });
}

/** Injects axe-core when the document lacks it, runs the `runOnly` rules and returns every violation as plain data. */
async function runAxe(page: Page, runOnly: { type: "tag" | "rule"; values: string[] }): Promise<AxeFinding[]> {
  const injected = await page.evaluate(() => "axe" in (globalThis as object));
  // The dashboard's CSP (script-src 'self') blocks the inline tag page.addScriptTag would add, so
  // the library is evaluated through the DevTools protocol, which the CSP does not govern.
  if (!injected) await page.evaluate((axeSource ??= readFileSync(AXE_PATH, "utf8")));
  await settleAnimations(page);
  return page.evaluate(async (only) => {
    const w = globalThis as unknown as PageWindow & { axe: { run(ctx: unknown, opts: unknown): Promise<AxeResultShape> } };
    const r = await w.axe.run(w.document, { runOnly: only, resultTypes: ["violations"] });
    // Only plain data crosses back into Node.
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "unknown",
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(" ")),
      summary: v.nodes[0]?.failureSummary ?? "",
    }));
  }, runOnly);
}

/**
 * Waits (≤ 2 s) for the page's finite animations and transitions to end: a dialog fading in blends
 * its colours with the page behind, and axe would measure the contrast of that blend.
 * Endless ones (spinners, pulses) are not waited for.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const d = (globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown>; effect: { getComputedTiming(): { endTime?: number | string } } | null }[] } }).document;
    const finite = d.getAnimations().filter((a) => {
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === "number" && Number.isFinite(end);
    });
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2_000))]);
  });
}

/** Formats findings for an assertion message: one line per rule with up to 5 targets. */
export function describeFindings(findings: AxeFinding[]): string[] {
  return findings.map((f) => {
    const more = f.targets.length > 5 ? ` (+${f.targets.length - 5} more)` : "";
    return `${f.id} [${f.impact}] ${f.help} — ${f.targets.slice(0, 5).join(" | ")}${more} — ${f.summary.replace(/\s+/g, " ").slice(0, 240)}`;
  });
}

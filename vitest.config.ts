import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import SpreadExclusiveSequencer from "./tools/vitest-sequencer.ts";

const webSrc = fileURLToPath(new URL("./web/src", import.meta.url));

/**
 * Four projects: `unit` (pure logic and in-process database suites), `api` (HTTP integration
 * against real server processes), `browser` (headless Chromium end-to-end) and `terminals` (the
 * MQL Expert Advisors compiled by the g++ harness, run against real servers). Database suites
 * run on PGlite always and also on PostgreSQL when TEST_DATABASE_URL is set.
 */
export default defineConfig({
  test: {
    // Two files at a time (vitest's default in run mode is one fewer than the CPUs: one on a 2-core
    // machine). The api and unit files mostly wait — on server processes, long polls and timers —
    // so two side by side nearly halve their time. The browser and terminals files run one at a
    // time (e2e/support/exclusive-file.ts) but beside unit and api files: as projects limited to
    // one worker (`fileParallelism: false`) vitest ran them last, alone (905 s of a 2,230 s test run
    // on a 2-core machine, 2026-11-29).
    maxWorkers: 2,
    // Vitest's order, with the browser and terminals files spread over the others' expected time.
    sequence: { sequencer: SpreadExclusiveSequencer },
    // CI (.ci/run sets VITEST_TIMINGS) also prints the slowest test files at the end.
    reporters: process.env.VITEST_TIMINGS ? ["default", "./tools/vitest-timings-reporter.ts"] : ["default"],
    projects: [
      {
        resolve: { alias: { "@": webSrc } },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "contract/**/*.test.ts", "tools/**/*.test.ts", "terminals/**/*.test.ts", "web/src/**/*.test.{ts,tsx}"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "api",
          include: ["e2e/api/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["e2e/browser/**/*.test.ts"],
          environment: "node",
          // One database per browser file when both are set (e2e/support/databases.ts databaseKinds);
          // one browser or terminals file at a time (exclusive-file.ts).
          setupFiles: ["e2e/support/exclusive-file.ts", "e2e/browser/support/one-database.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll waits up to 10 s here, not vitest's 1 s: a poll that follows a page.goto
          // waits for the page, its scripts and its first queries, which took over a second with a
          // second test file beside it (CI 2026-11-30: sync.test.ts read "Not checked yet", the
          // summaries not loaded yet; reproduced with the page's CPU throttled 8×). A state that
          // never comes still fails, 10 s later.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          // The Expert Advisors compiled with g++ by terminals/harness and run against real servers.
          name: "terminals",
          include: ["e2e/terminals/**/*.test.ts"],
          environment: "node",
          // One browser or terminals file at a time (exclusive-file.ts).
          setupFiles: ["e2e/support/exclusive-file.ts"],
          testTimeout: 420_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});

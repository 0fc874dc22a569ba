import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const webSrc = fileURLToPath(new URL("./web/src", import.meta.url));

/**
 * Three projects: `unit` (pure logic and in-process database suites), `api` (HTTP integration
 * against real server processes) and `browser` (headless Chromium end-to-end). Database suites
 * run on PGlite always and also on PostgreSQL when TEST_DATABASE_URL is set.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { "@": webSrc } },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "contract/**/*.test.ts", "tools/**/*.test.ts", "web/src/**/*.test.{ts,tsx}"],
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
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

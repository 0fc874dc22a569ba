/**
 * Setup file of the browser project (vitest.config.ts): records which test file is being collected,
 * so e2e/support/databases.ts `databaseKinds()` can run each browser file on one database
 * (half the files on each) without importing vitest itself — the benches import databases.ts too.
 */
import { expect } from "vitest";

(globalThis as { __cbTestFile?: string }).__cbTestFile = expect.getState().testPath ?? "";

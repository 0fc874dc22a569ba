/**
 * Setup file of the browser and terminals projects (vitest.config.ts): one such file at a time,
 * whichever worker runs it, while unit and api files go on beside it.
 *
 * Those files drive Chromium or compiled Expert Advisors (g++ first) against their own servers, a
 * load of its own each; they have run one at a time since they were written. Declared with
 * `fileParallelism: false` they ran in a group of their own AFTER every other file (vitest runs a
 * project limited to one worker last, alone): about 15 minutes of a CI run with one test file in
 * flight. Now every project shares the two workers, and this lock keeps the heavy files apart.
 *
 * The lock is db/data-dir-lock.ts's, on a folder of the system's temporary directory named after
 * this checkout: a pid file, so a worker killed mid-file (a timeout) leaves a lock the next one
 * takes over. Taken in a `beforeAll` ahead of the file's own hooks, given back after its last.
 */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from "../../server/db/data-dir-lock.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LOCK_DIR = join(tmpdir(), `copybridge-exclusive-tests-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`);

/** How often a waiting file asks again, ms. */
const RETRY_MS = 250;
/** Longer than any heavy file runs (the terminals project's own hook limit is 10 minutes). */
const WAIT_LIMIT_MS = 60 * 60_000;

let held: DataDirLock | null = null;

beforeAll(async () => {
  for (;;) {
    try {
      held = acquireDataDirLock(LOCK_DIR);
      return;
    } catch (err) {
      if (!(err instanceof DataDirLockedError)) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}, WAIT_LIMIT_MS);

afterAll(() => {
  held?.release();
  held = null;
});

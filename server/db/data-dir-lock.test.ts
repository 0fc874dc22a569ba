/**
 * The data folder lock in-process: who may take `<dir>/db.lock`, and when a lock is judged stale.
 * Real processes play the holders (a child that exited, a child that lives); the two-server
 * behaviour end to end is in e2e/api/data-dir-lock.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME, liveHolder, type LockHolder } from "./data-dir-lock.ts";

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];

function writeHolder(holder: Partial<LockHolder>): void {
  const full: LockHolder = { pid: 1, host: hostname(), startedAt: "2026-01-01T00:00:00.000Z", nonce: "n-1", ...holder };
  writeFileSync(lockFile, JSON.stringify(full));
}

function recordedPid(): number {
  return (JSON.parse(readFileSync(lockFile, "utf8")) as LockHolder).pid;
}

/** A process that lives until the test ends. */
function liveChild(): number {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cb-lock-"));
  lockFile = join(dir, LOCK_FILE_NAME);
});

afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("data folder lock", () => {
  it("is taken once: a second taker is refused with the folder and the holder, and may take it after release", () => {
    const lock = acquireDataDirLock(dir);
    expect(recordedPid()).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`${dir}.*process ${process.pid}`));
    lock.release();
    expect(() => readFileSync(lockFile)).toThrow();
    acquireDataDirLock(dir).release();
  });

  it("refuses a folder held by another live process, naming it", () => {
    const pid = liveChild();
    writeHolder({ pid, startedAt: "2026-11-24T01:00:00.000Z" });
    expect(() => acquireDataDirLock(dir)).toThrow(`Data folder ${dir} is in use by CopyBridge process ${pid} on ${hostname()} (started 2026-11-24T01:00:00.000Z)`);
    expect(recordedPid()).toBe(pid);
    expect(liveHolder(dir)?.pid).toBe(pid);
  });

  it("takes over the lock of a process that is gone", async () => {
    writeHolder({ pid: await deadPid() });
    expect(liveHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir);
    expect(recordedPid()).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock that names this process's pid (an earlier process that had it)", () => {
    writeHolder({ pid: process.pid, nonce: "earlier" });
    acquireDataDirLock(dir).release();
  });

  it.runIf(process.platform === "linux")("takes over when the pid now belongs to a process started at another time", () => {
    writeHolder({ pid: liveChild(), procStart: "1" });
    const lock = acquireDataDirLock(dir);
    expect(recordedPid()).toBe(process.pid);
    lock.release();
  });

  it("respects a lock written on another host and an unreadable one, saying which file to delete", () => {
    // Its pid means nothing here, so even a pid that does not exist locally holds the folder.
    writeHolder({ pid: 999_999, host: "elsewhere.example" });
    expect(() => acquireDataDirLock(dir)).toThrow(`delete ${lockFile}`);
    writeFileSync(lockFile, "");
    expect(() => acquireDataDirLock(dir)).toThrow(`delete that file`);
  });

  it("release leaves a lock that is no longer its own", () => {
    const lock = acquireDataDirLock(dir);
    writeHolder({ pid: 4242, nonce: "someone-else" });
    lock.release();
    expect(recordedPid()).toBe(4242);
  });

  it("records the backup socket for tools to find", () => {
    const lock = acquireDataDirLock(dir);
    lock.update({ control: "/tmp/x/backup.sock" });
    expect(liveHolder(dir)).toMatchObject({ pid: process.pid, control: "/tmp/x/backup.sock" });
    lock.release();
  });
});

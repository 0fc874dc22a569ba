/**
 * One process per embedded data folder: `<DATA_DIR>/db.lock` names the process that has the PGlite
 * database open (pid, host, start time and, once it listens, the socket that serves backups).
 * PGlite has no lock of its own, and two processes on one folder corrupt it.
 *
 * Why a pid file rather than proper-lockfile: proper-lockfile decides staleness by the lock's mtime,
 * so a lock left by a killed process is taken over only after its `stale` period (≥ 2 s, 10 s by
 * default), and a holder whose event loop is blocked longer than that (PGlite runs queries
 * synchronously in WebAssembly) is declared compromised while it still writes. It also records no
 * holder to name. Here liveness is asked of the operating system: the recorded pid must exist and,
 * on Linux, have the recorded start time (so a pid reused after a reboot does not hold the folder).
 * A lock written on another host cannot be checked and is respected.
 */
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";

export const LOCK_FILE_NAME = "db.lock";

/** What the lock file records about its holder. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holding process started. */
  startedAt: string;
  /** Linux: the process start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  procStart?: string;
  /** Unique per acquisition, so a takeover removes exactly the stale lock it judged. */
  nonce: string;
  /** Socket or named pipe the holder answers backup requests on (see backup-socket.ts). */
  control?: string;
}

/** Thrown when another live process (or this one) holds the data folder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    readonly holder: LockHolder | null,
  ) {
    super(lockedMessage(dataDir, lockFile, holder));
    this.name = "DataDirLockedError";
  }
}

function lockedMessage(dataDir: string, lockFile: string, holder: LockHolder | null): string {
  if (!holder) return `Data folder ${dataDir} is locked by ${lockFile}, which cannot be read. If no CopyBridge process uses this folder, delete that file.`;
  const who = `process ${holder.pid} on ${holder.host} (started ${holder.startedAt})`;
  const hint =
    holder.host === hostname()
      ? "Stop that process first, or give this one another DATA_DIR."
      : `Its liveness cannot be checked from here: if no CopyBridge process runs there any more, delete ${lockFile}.`;
  return `Data folder ${dataDir} is in use by CopyBridge ${who}: one process per data folder. ${hint}`;
}

/** A held lock. `release()` is idempotent and only removes the file while it is still ours. */
export interface DataDirLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** Records extra facts about the holder (the backup socket) in the lock file. */
  update(extra: Pick<LockHolder, "control">): void;
  release(): void;
}

// Locks this process holds: a second open of the same folder in one process is refused too
// (the pid check alone would take it for a stale lock of an earlier process with our pid).
const heldHere = new Map<string, string>(); // lock file → nonce

function procStartTicks(pid: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (comm) is parenthesised and may hold spaces; field 3 starts after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether `holder` may still have the folder open (true when it cannot be told). */
export function holderIsAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  // Our own pid in a lock we do not hold: a previous process that had our pid (containers restart as pid 1).
  if (holder.pid === process.pid) return [...heldHere.values()].includes(holder.nonce);
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const now = holder.procStart === undefined ? undefined : procStartTicks(holder.pid);
  return now === undefined || now === holder.procStart;
}

/** The lock file's holder; undefined when there is no lock file, null when it cannot be parsed. */
export function readLockHolder(file: string): LockHolder | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    return typeof parsed.pid === "number" && typeof parsed.nonce === "string" && typeof parsed.host === "string" ? (parsed as LockHolder) : null;
  } catch {
    return null;
  }
}

/** The live holder of `dataDir`, if any (for tools that talk to a running server). */
export function liveHolder(dataDir: string): LockHolder | null {
  const holder = readLockHolder(join(dataDir, LOCK_FILE_NAME));
  // An unreadable lock counts as none here: opening the folder reports it.
  if (!holder) return null;
  return holderIsAlive(holder) ? holder : null;
}

// Written completely and flushed before it is linked into place, so a reader (or a start after a
// power cut) never sees a half-written lock.
function writeDurably(file: string, holder: LockHolder): void {
  const fd = openSync(file, "w", 0o644);
  try {
    writeSync(fd, JSON.stringify(holder));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// Moves the stale lock aside and checks it is the one judged stale: if a concurrent starter took
// over in between, its fresh lock is put back.
function removeStale(file: string, stale: LockHolder): void {
  const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    if (readLockHolder(aside)?.nonce !== stale.nonce) linkSync(aside, file);
  } catch {
    // Another starter linked its own lock meanwhile: it holds the folder; ours will see it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Takes `<dataDir>/db.lock` for this process, taking over a lock whose holder is gone.
 * Throws DataDirLockedError naming the holder when a live process has it.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE_NAME);
  if (heldHere.has(file)) throw new DataDirLockedError(dataDir, file, readLockHolder(file) ?? null);
  mkdirSync(dataDir, { recursive: true });
  const procStart = procStartTicks(process.pid);
  let holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    ...(procStart === undefined ? {} : { procStart }),
    nonce: randomUUID(),
  };
  const tmp = `${file}.new-${holder.nonce}`;
  writeDurably(tmp, holder);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(tmp, file); // atomic: fails with EEXIST while any lock is in place
        heldHere.set(file, holder.nonce);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      const current = readLockHolder(file);
      if (current === undefined) continue;
      if (current === null || holderIsAlive(current)) throw new DataDirLockedError(dataDir, file, current);
      removeStale(file, current);
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  if (!heldHere.has(file)) throw new Error(`Could not lock data folder ${dataDir}: ${file} kept changing`);

  const ours = () => readLockHolder(file)?.nonce === holder.nonce;
  const release = () => {
    if (!heldHere.delete(file)) return;
    process.off("exit", release);
    if (ours()) rmSync(file, { force: true });
  };
  // A crash that still runs exit handlers frees the folder at once; kill -9 leaves a stale lock.
  process.on("exit", release);
  return {
    file,
    get holder() {
      return holder;
    },
    update(extra) {
      if (!heldHere.has(file)) return;
      holder = { ...holder, ...extra };
      const next = `${file}.new-${holder.nonce}`;
      writeDurably(next, holder);
      renameSync(next, file); // atomic replace of our own lock
    },
    release,
  };
}

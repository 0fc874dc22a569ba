/**
 * Checks of a terminal snapshot beyond its wire schema (docs/bridge-protocol.md §10, issue 14
 * "bad input"): an entry the server could never reconcile is refused with 400 naming it, and the
 * previous snapshot stays in use. Pure; the caller loads the symbols the slave reported.
 * - volume: more than 1,000,000 lots, or more than 8 decimals (no broker trades such a size);
 * - symbol (slaves that reported symbol specifications only): a COPY (the slave's copy magic, or
 *   a `cb:` comment while the magic is unknown) on a symbol the terminal never reported — the EA
 *   reports a symbol's specification before it trades it. The user's own positions may be on any
 *   symbol (the EA only reports the symbols it copies), so they are never refused. Masters report
 *   no specifications: their symbols are not checked.
 * Duplicate tickets are refused by the contract's schema already.
 */
import Big from "big.js";
import { AppError } from "../../http/errors.ts";

/** Largest volume a snapshot entry may carry, lots. */
export const MAX_SNAPSHOT_VOLUME = "1000000";
/** Most decimals a snapshot volume may carry (brokers' volume steps stop well before). */
export const MAX_VOLUME_DECIMALS = 8;

/** What the checks read of a snapshot: each entry's symbol and volume. */
type Entry = { symbol: string; volume: string; magic?: string | null | undefined; comment?: string | null | undefined };
export interface SnapshotEntries {
  positions: readonly Entry[];
  orders: readonly Entry[];
}

/** Whether `entry` is one of the slave EA's copies (its magic, or a `cb:` comment while the magic is unknown). */
function isCopy(entry: Entry, copyMagic: string | null): boolean {
  if (copyMagic !== null) return entry.magic != null && String(entry.magic) === copyMagic;
  return (entry.comment ?? "").startsWith("cb:");
}

export interface SnapshotProblem {
  /** Field path, e.g. `positions.3.symbol`. */
  path: string;
  message: string;
}

/** Why `volume` (lots, decimal string) is impossible, or null when it is plausible. */
export function impossibleVolume(volume: string): string | null {
  let v: Big;
  try {
    v = new Big(volume);
  } catch {
    return `Volume ${volume} is not a number`;
  }
  if (v.lte(0)) return `Volume ${volume} must be greater than 0`;
  if (v.gt(MAX_SNAPSHOT_VOLUME)) return `Impossible volume ${volume}: more than 1,000,000 lots`;
  const decimals = Math.max(0, v.c.length - 1 - v.e);
  if (decimals > MAX_VOLUME_DECIMALS) return `Impossible volume ${volume}: more than ${MAX_VOLUME_DECIMALS} decimals`;
  return null;
}

/**
 * The first entry of `snapshot` the server refuses, or null. `knownSymbols`: the symbols the
 * slave reported (null = none reported, or a master: symbols are not checked); `copyMagic`: the
 * slave EA's copy magic (heartbeat copyMagic), null when unknown.
 */
export function snapshotProblem(snapshot: SnapshotEntries, knownSymbols: ReadonlySet<string> | null, copyMagic: string | null = null): SnapshotProblem | null {
  const lists = [
    ["positions", snapshot.positions],
    ["orders", snapshot.orders],
  ] as const;
  for (const [name, entries] of lists) {
    for (const [i, entry] of entries.entries()) {
      const volumeProblem = impossibleVolume(entry.volume);
      if (volumeProblem) return { path: `${name}.${i}.volume`, message: volumeProblem };
      if (knownSymbols && knownSymbols.size > 0 && !knownSymbols.has(entry.symbol) && isCopy(entry, copyMagic)) {
        return { path: `${name}.${i}.symbol`, message: `Unknown symbol ${entry.symbol}: not among the symbols this terminal reported` };
      }
    }
  }
  return null;
}

/** Throws 400 `validation_failed` naming the first refused entry (see snapshotProblem). */
export function assertSnapshotEntries(snapshot: SnapshotEntries, knownSymbols: ReadonlySet<string> | null, copyMagic: string | null = null): void {
  const problem = snapshotProblem(snapshot, knownSymbols, copyMagic);
  if (problem) throw new AppError("validation_failed", `${problem.path}: ${problem.message}`, { issues: [problem] });
}

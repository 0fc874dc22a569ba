/**
 * Saves and restores the master terminal (positions, pending orders, balance, ticket and event
 * counters) and the market's last prices, so a restarted simulator keeps managing the trades the
 * bridge still considers open.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { MasterEntry, MasterState } from "./master-types.ts";
import { resolveSymbol } from "./symbols.ts";

interface StoredMaster {
  version: 1;
  balance: number;
  nextTicket: number;
  seq: number;
  entries: (Omit<MasterEntry, "spec"> & { spec: string })[];
  /** Mid price per symbol. */
  mids: Record<string, number>;
}

export interface SavedMaster {
  state: MasterState;
  mids: Record<string, number>;
}

/** Reads a saved master; undefined when the file does not exist. Throws on a bad file. */
export function loadMasterState(path: string): SavedMaster | undefined {
  let stored: StoredMaster;
  try {
    stored = JSON.parse(readFileSync(path, "utf8")) as StoredMaster;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  if (stored.version !== 1) throw new Error(`unsupported simulator state version ${String(stored.version)}`);
  const entries = new Map<number, MasterEntry>();
  for (const e of stored.entries) {
    const spec = resolveSymbol(e.spec);
    if (!spec) throw new Error(`unknown symbol ${e.spec} in simulator state`);
    entries.set(e.ticket, { ...e, spec });
  }
  return { state: { balance: stored.balance, nextTicket: stored.nextTicket, seq: stored.seq, entries }, mids: stored.mids };
}

/** Writes the master and the market prices atomically (temporary file, then rename). */
export function saveMasterState(path: string, state: MasterState, mids: Record<string, number>): void {
  const stored: StoredMaster = {
    version: 1,
    balance: state.balance,
    nextTicket: state.nextTicket,
    seq: state.seq,
    entries: [...state.entries.values()].map((e) => ({ ...e, spec: e.spec.name })),
    mids,
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(stored));
  renameSync(`${path}.tmp`, path);
}

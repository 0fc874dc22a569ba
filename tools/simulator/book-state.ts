/**
 * Saves and restores a slave terminal's book (positions, balance, executed order ids) as JSON,
 * so a restarted EA re-reports redelivered orders instead of trading them again
 * (docs/bridge-protocol.md §7, item 4).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { BookEntry, BookState, Report } from "./book-types.ts";
import { resolveSymbol } from "./symbols.ts";

/** Executed-order outcomes kept on disk (the newest); older orders are long reported. */
const MAX_OUTCOMES = 5000;

type StoredEntry = Omit<BookEntry, "spec"> & { spec: string };

interface StoredBook {
  version: 1;
  balance: number;
  nextTicket: number;
  entries: StoredEntry[];
  renamed: [string, string][];
  outcomes: [string, Report][];
  refusedOpens: string[];
}

/** The state as JSON text. */
export function serializeBook(state: BookState): string {
  const stored: StoredBook = {
    version: 1,
    balance: state.balance,
    nextTicket: state.nextTicket,
    entries: [...state.entries.values()].map((e) => ({ ...e, spec: e.spec.name })),
    renamed: [...state.renamed],
    outcomes: [...state.outcomes].slice(-MAX_OUTCOMES),
    refusedOpens: [...state.refusedOpens].slice(-MAX_OUTCOMES),
  };
  return JSON.stringify(stored);
}

/** Parses serializeBook() output; throws on a file from another version or an unknown symbol. */
export function parseBook(text: string): BookState {
  const stored = JSON.parse(text) as StoredBook;
  if (stored.version !== 1) throw new Error(`unsupported simulator state version ${String(stored.version)}`);
  const entries = new Map<string, BookEntry>();
  for (const e of stored.entries) {
    const spec = resolveSymbol(e.spec);
    if (!spec) throw new Error(`unknown symbol ${e.spec} in simulator state`);
    entries.set(e.ticket, { ...e, spec });
  }
  return {
    balance: stored.balance,
    nextTicket: stored.nextTicket,
    entries,
    renamed: new Map(stored.renamed),
    outcomes: new Map(stored.outcomes),
    refusedOpens: new Set(stored.refusedOpens),
  };
}

/** Reads a saved book; undefined when the file does not exist. */
export function loadBookState(path: string): BookState | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return parseBook(text);
}

/** Writes the book atomically (temporary file, then rename). */
export function saveBookState(path: string, state: BookState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, serializeBook(state));
  renameSync(tmp, path);
}

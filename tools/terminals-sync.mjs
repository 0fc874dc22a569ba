#!/usr/bin/env node
/**
 * Copies the shared MQL includes (DESIGN.md §1, files marked [shared]) from
 * terminals/MQL5/Include/CopyBridge to terminals/MQL4/Include/CopyBridge, byte for byte.
 * Usage: `npm run terminals:sync` (no arguments). Exits 1 when a source file is missing.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The shared includes, edited in the MQL5 folder only. */
export const SHARED_INCLUDES = [
  "Types.mqh",
  "Hmac.mqh",
  "Json.mqh",
  "Http.mqh",
  "Protocol.mqh",
  "Store.mqh",
  "Status.mqh",
  "MasterCore.mqh",
  "SlaveCore.mqh",
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Folder holding the edited copies. */
export const MQL5_INCLUDE_DIR = join(root, "terminals", "MQL5", "Include", "CopyBridge");
/** Folder receiving the byte-identical copies. */
export const MQL4_INCLUDE_DIR = join(root, "terminals", "MQL4", "Include", "CopyBridge");

/**
 * Copies every shared include that exists; returns the names copied and the names missing.
 * @returns {{ copied: string[], missing: string[] }}
 */
export function syncSharedIncludes() {
  mkdirSync(MQL4_INCLUDE_DIR, { recursive: true });
  const copied = [];
  const missing = [];
  for (const name of SHARED_INCLUDES) {
    const from = join(MQL5_INCLUDE_DIR, name);
    if (!existsSync(from)) {
      missing.push(name);
      continue;
    }
    copyFileSync(from, join(MQL4_INCLUDE_DIR, name));
    copied.push(name);
  }
  return { copied, missing };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { copied, missing } = syncSharedIncludes();
  console.info(`terminals:sync copied ${copied.length} file(s) to ${MQL4_INCLUDE_DIR}`);
  if (missing.length > 0) {
    console.error(`missing in ${MQL5_INCLUDE_DIR}: ${missing.join(", ")}`);
    process.exitCode = 1;
  }
}

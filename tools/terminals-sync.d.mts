/** Types of tools/terminals-sync.mjs. */
/** The shared includes, edited in the MQL5 folder only. */
export const SHARED_INCLUDES: readonly string[];
/** Folder holding the edited copies (terminals/MQL5/Include/CopyBridge). */
export const MQL5_INCLUDE_DIR: string;
/** Folder receiving the byte-identical copies (terminals/MQL4/Include/CopyBridge). */
export const MQL4_INCLUDE_DIR: string;
/** Copies every shared include that exists; returns the names copied and the names missing. */
export function syncSharedIncludes(): { copied: string[]; missing: string[] };

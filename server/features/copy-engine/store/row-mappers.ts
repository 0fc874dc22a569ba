/**
 * Row → domain shapes shared by the stores: a slave's symbol specification and close-only state
 * (its copy settings: copy-settings/settings-of.ts). Pure mapping, no queries.
 */
import type { CloseOnlyCode } from "#contract";
import { DEFAULT_VOLUME_SPEC, type CloseOnly, type SymbolVolumeSpec } from "../domain/index.ts";

/** Symbol spec columns (symbol_specs, decimal strings) → the domain's volume spec; none → DEFAULT_VOLUME_SPEC. */
export function specOf(
  row: { volumeStep: string | null; volumeMin: string | null; volumeMax: string | null; tickSize: string | null; tickValue: string | null } | null,
): SymbolVolumeSpec {
  if (!row || row.volumeStep == null || row.volumeMin == null || row.volumeMax == null) return DEFAULT_VOLUME_SPEC;
  return { volumeStep: row.volumeStep, volumeMin: row.volumeMin, volumeMax: row.volumeMax, tickSize: row.tickSize, tickValue: row.tickValue, isDefault: false };
}

/** accounts.close_only_* → the domain's close-only state (null when not in close-only). */
export function closeOnlyStateOf(row: { closeOnlyCode: string | null; closeOnlyReason: string | null; closeOnlySince: Date | null }): CloseOnly | null {
  if (row.closeOnlyCode == null) return null;
  return { code: row.closeOnlyCode as CloseOnlyCode, reason: row.closeOnlyReason ?? "", sinceMs: row.closeOnlySince?.getTime() ?? 0 };
}

/** A numeric column's value as read by a raw statement (db/raw.ts): its decimal text, as Drizzle's numeric maps it (null stays null). */
export const decimalText = (v: unknown): string | null => (v == null ? null : typeof v === "string" ? v : `${v as number}`);

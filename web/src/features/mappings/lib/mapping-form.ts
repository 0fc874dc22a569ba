/**
 * Symbol mapping form rules — spec §5 (masterSymbol, slaveSymbol and slaveAccountId required;
 * lotMultiplier entered as text, step 0.1, default '1.0', converted to a number on submit) with
 * the contract's createSymbolMapRequestSchema semantics (multiplier > 0, at most 1000).
 */
import { type SymbolMap, createSymbolMapRequestSchema } from "#contract";
import { z } from "zod";

/** §5/§9 default lot multiplier as typed into the form. */
export const DEFAULT_LOT_MULTIPLIER = "1.0";

/** The form's fields; the multiplier stays text until submit. */
export const mappingFormSchema = createSymbolMapRequestSchema.extend({
  lotMultiplier: z
    .string()
    .trim()
    .min(1, "Lot multiplier is required")
    .transform(Number)
    .pipe(createSymbolMapRequestSchema.shape.lotMultiplier.unwrap()),
});

/** Raw form state. */
export type MappingFormInput = z.input<typeof mappingFormSchema>;
/** Validated values: what POST /api/symbol-maps and PUT /api/symbol-maps/:id send. */
export type MappingFormValues = z.output<typeof mappingFormSchema>;

/** A new mapping's form, preselecting `slaveAccountId` (the open slave tab) when given. */
export function emptyMappingForm(slaveAccountId = ""): MappingFormInput {
  return { masterSymbol: "", slaveSymbol: "", slaveAccountId, lotMultiplier: DEFAULT_LOT_MULTIPLIER, enabled: true };
}

/** The edit form of an existing mapping. */
export function mappingToForm(mapping: SymbolMap): MappingFormInput {
  return {
    masterSymbol: mapping.masterSymbol,
    slaveSymbol: mapping.slaveSymbol,
    slaveAccountId: mapping.slaveAccountId,
    lotMultiplier: formatLotMultiplier(mapping.lotMultiplier),
    enabled: mapping.enabled,
  };
}

/** Lot multiplier with at least one decimal: 1 → "1.0", 0.25 → "0.25". */
export function formatLotMultiplier(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 6, useGrouping: false });
}

/** §5 step of the multiplier field. */
export const LOT_MULTIPLIER_STEP = 0.1;

/**
 * The multiplier text one step up (`direction` 1) or down (-1): 1.0 → 1.1, 0.25 → 0.35; never
 * below one step. Text that is not a number starts again from the default.
 */
export function stepLotMultiplier(text: string, direction: 1 | -1): string {
  const current = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(current)) return DEFAULT_LOT_MULTIPLIER;
  const next = Math.round((current + direction * LOT_MULTIPLIER_STEP) * 1e6) / 1e6;
  return formatLotMultiplier(Math.max(LOT_MULTIPLIER_STEP, next));
}


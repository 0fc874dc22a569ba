/** Symbol mappings — spec §3 Symbol mapping, §5 mapping form, §7 /api/symbol-maps. */
import { z } from "zod";
import { text } from "./common.ts";

/** Lot multiplier bounds: > 0 (a zero multiplier would copy nothing) and at most 1000. */
const lotMultiplier = z
  .number({ message: "Lot multiplier must be a number" })
  .finite()
  .gt(0, "Lot multiplier must be greater than 0")
  .max(1000, "Lot multiplier must be at most 1000");

export const createSymbolMapRequestSchema = z.object({
  masterSymbol: text(32, "Master symbol is too long").min(1, "Master symbol is required"),
  slaveSymbol: text(32, "Slave symbol is too long").min(1, "Slave symbol is required"),
  slaveAccountId: z.string().min(1, "Slave account is required").pipe(z.uuid({ message: "Slave account is required" })),
  lotMultiplier: lotMultiplier.default(1),
  enabled: z.boolean().default(true),
});
export type CreateSymbolMapRequest = z.input<typeof createSymbolMapRequestSchema>;

export const updateSymbolMapRequestSchema = z
  .object({
    masterSymbol: text(32, "Master symbol is too long").min(1, "Master symbol is required"),
    slaveSymbol: text(32, "Slave symbol is too long").min(1, "Slave symbol is required"),
    slaveAccountId: z.uuid({ message: "Slave account is required" }),
    lotMultiplier,
    enabled: z.boolean(),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to update: send at least one field");
export type UpdateSymbolMapRequest = z.input<typeof updateSymbolMapRequestSchema>;

export const symbolMapSchema = z.object({
  id: z.string(),
  masterSymbol: z.string(),
  slaveSymbol: z.string(),
  slaveAccountId: z.string(),
  /** Stored as numeric; sent as a number per spec §3. */
  lotMultiplier: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export type SymbolMap = z.infer<typeof symbolMapSchema>;
export const symbolMapListSchema = z.array(symbolMapSchema);

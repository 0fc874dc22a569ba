/**
 * Symbol mappings — spec §2 /mappings, §3 Symbol mapping, §5 mapping form, §7 /api/symbol-maps.
 * One mapping per (slave account, master symbol) per tenant (409 otherwise); the multiplier is
 * > 0 and stored as an exact numeric. Errors: 404 unknown id (another tenant's included), 400 when
 * the slave account is not one of the tenant's slaves.
 */
import { asc, isNotNull, notInArray } from "drizzle-orm";
import type { SymbolMap, createSymbolMapRequestSchema, updateSymbolMapRequestSchema } from "#contract";
import { numberToDecimalString } from "#contract";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { accounts, symbolMaps } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import { findAccount } from "../accounts/queries.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";

type CreateInput = z.output<typeof createSymbolMapRequestSchema>;
type UpdateInput = z.output<typeof updateSymbolMapRequestSchema>;
type Row = typeof symbolMaps.$inferSelect;

function toSymbolMap(row: Row): SymbolMap {
  return {
    id: row.id,
    masterSymbol: row.masterSymbol,
    slaveSymbol: row.slaveSymbol,
    slaveAccountId: row.slaveAccountId,
    lotMultiplier: Number(row.lotMultiplier),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

function mapConflict(err: unknown): never {
  if (isUniqueViolation(err, "symbol_maps_slave_master_key")) {
    throw conflict("A mapping for this master symbol already exists for this slave account");
  }
  throw err;
}

async function assertSlave(db: Db, tenantId: string, accountId: string): Promise<void> {
  const account = await findAccount(db, tenantId, accountId);
  if (!account || account.role !== "SLAVE") throw invalidField("slaveAccountId", "Slave account not found");
}

/** The tenant's mappings of live slaves (a deleted slave's mappings are kept but no longer act or show). */
export async function listSymbolMaps(ctx: AppContext, tenantId: string): Promise<SymbolMap[]> {
  const deletedSlaves = ctx.db.select({ id: accounts.id }).from(accounts).where(ofTenant(accounts, tenantId, isNotNull(accounts.deletedAt)));
  const rows = await ctx.db
    .select()
    .from(symbolMaps)
    .where(ofTenant(symbolMaps, tenantId, notInArray(symbolMaps.slaveAccountId, deletedSlaves)))
    .orderBy(asc(symbolMaps.createdAt), asc(symbolMaps.id));
  return rows.map(toSymbolMap);
}

export async function createSymbolMap(ctx: AppContext, tenantId: string, input: CreateInput): Promise<SymbolMap> {
  return ctx.db
    .transaction(async (tx) => {
      await assertSlave(tx, tenantId, input.slaveAccountId);
      const [row] = await tx
        .insert(symbolMaps)
        .values({
          tenantId,
          slaveAccountId: input.slaveAccountId,
          masterSymbol: input.masterSymbol,
          slaveSymbol: input.slaveSymbol,
          lotMultiplier: numberToDecimalString(input.lotMultiplier),
          enabled: input.enabled,
        })
        .returning();
      if (!row) throw new Error("symbol map insert returned nothing");
      await writeAuditLog(tx, {
        tenantId,
        category: "system",
        source: "symbol-maps",
        message: `Symbol mapping ${row.masterSymbol} → ${row.slaveSymbol} ×${row.lotMultiplier} created`,
        accountId: row.slaveAccountId,
        metadata: { symbolMapId: row.id },
      });
      return toSymbolMap(row);
    })
    .catch(mapConflict);
}

export async function updateSymbolMap(ctx: AppContext, tenantId: string, id: string, patch: UpdateInput): Promise<SymbolMap> {
  return ctx.db
    .transaction(async (tx) => {
      if (patch.slaveAccountId) await assertSlave(tx, tenantId, patch.slaveAccountId);
      const { lotMultiplier, ...rest } = patch;
      const [row] = await tx
        .update(symbolMaps)
        .set({ ...rest, ...(lotMultiplier !== undefined ? { lotMultiplier: numberToDecimalString(lotMultiplier) } : {}) })
        .where(ofTenantById(symbolMaps, tenantId, id))
        .returning();
      if (!row) throw notFound("Symbol mapping");
      await writeAuditLog(tx, {
        tenantId,
        category: "system",
        source: "symbol-maps",
        message: `Symbol mapping ${row.masterSymbol} → ${row.slaveSymbol} ×${row.lotMultiplier} updated (${row.enabled ? "active" : "disabled"})`,
        accountId: row.slaveAccountId,
        metadata: { symbolMapId: row.id, changed: Object.keys(patch) },
      });
      return toSymbolMap(row);
    })
    .catch(mapConflict);
}

export async function deleteSymbolMap(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(symbolMaps).where(ofTenantById(symbolMaps, tenantId, id)).returning();
    if (!row) throw notFound("Symbol mapping");
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "symbol-maps",
      message: `Symbol mapping ${row.masterSymbol} → ${row.slaveSymbol} deleted`,
      accountId: row.slaveAccountId,
      metadata: { symbolMapId: row.id },
    });
  });
}

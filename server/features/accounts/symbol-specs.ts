/**
 * Slave symbol specifications (docs/bridge-protocol.md §6.4): upserted per (tenant, account,
 * symbol) from POST /v1/slave/symbols, read by GET /api/accounts/:id/symbol-specs. Scoped by
 * tenant (db/scope.ts).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { SymbolSpec, SymbolSpecData, SymbolTradeMode } from "#contract";
import type { Db } from "../../db/client.ts";
import { symbolSpecs } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

type SpecRow = typeof symbolSpecs.$inferSelect;

/** Stores `specs` for the account (insert or overwrite, `updated_at` = now). Returns how many were stored. */
export async function upsertSymbolSpecs(db: Db, tenantId: string, accountId: string, specs: SymbolSpecData[], now = new Date()): Promise<number> {
  const rows = await db
    .insert(symbolSpecs)
    .values(specs.map((s) => ({ tenantId, accountId, ...s, updatedAt: now })))
    .onConflictDoUpdate({
      target: [symbolSpecs.tenantId, symbolSpecs.accountId, symbolSpecs.symbol],
      set: {
        digits: sql`excluded.digits`,
        point: sql`excluded.point`,
        volumeMin: sql`excluded.volume_min`,
        volumeStep: sql`excluded.volume_step`,
        volumeMax: sql`excluded.volume_max`,
        contractSize: sql`excluded.contract_size`,
        tickSize: sql`excluded.tick_size`,
        tickValue: sql`excluded.tick_value`,
        tradeMode: sql`excluded.trade_mode`,
        stopsLevel: sql`excluded.stops_level`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning({ symbol: symbolSpecs.symbol });
  return rows.length;
}

/** The account's reported symbols, by name. */
export async function listSymbolSpecs(db: Db, tenantId: string, accountId: string): Promise<SymbolSpec[]> {
  const rows = await db.select().from(symbolSpecs).where(ofTenant(symbolSpecs, tenantId, eq(symbolSpecs.accountId, accountId))).orderBy(asc(symbolSpecs.symbol));
  return rows.map(toSymbolSpec);
}

function toSymbolSpec(r: SpecRow): SymbolSpec {
  return {
    symbol: r.symbol,
    digits: r.digits,
    point: r.point,
    volumeMin: r.volumeMin,
    volumeStep: r.volumeStep,
    volumeMax: r.volumeMax,
    contractSize: r.contractSize,
    tickSize: r.tickSize,
    tickValue: r.tickValue,
    tradeMode: r.tradeMode as SymbolTradeMode,
    stopsLevel: r.stopsLevel,
    updatedAt: r.updatedAt.toISOString(),
  };
}

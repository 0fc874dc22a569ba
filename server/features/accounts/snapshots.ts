/**
 * Account snapshots (docs/bridge-protocol.md §4.3, §6.5): the latest list of open positions and
 * pending orders per account, kept with its terminal time and receive time. A snapshot older
 * (by `ts`) than the stored one is ignored. Scoped by tenant (db/scope.ts).
 */
import { eq, lte, sql } from "drizzle-orm";
import type { AccountSnapshot, Snapshot, StoredSnapshotOrder, StoredSnapshotPosition } from "#contract";
import type { Db } from "../../db/client.ts";
import { accountSnapshots } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

/** Validated wire snapshot → stored entries (every field present, null when absent). */
function toStored(s: Snapshot): { positions: StoredSnapshotPosition[]; orders: StoredSnapshotOrder[] } {
  return {
    positions: s.positions.map((p) => ({
      ticket: p.ticket,
      symbol: p.symbol,
      side: p.side,
      volume: p.volume,
      openPrice: p.openPrice,
      sl: p.sl,
      tp: p.tp,
      openTime: p.openTime ?? null,
      currentPrice: p.currentPrice ?? null,
      magic: p.magic ?? null,
      comment: p.comment ?? null,
    })),
    orders: s.orders.map((o) => ({
      ticket: o.ticket,
      symbol: o.symbol,
      side: o.side,
      orderType: o.orderType,
      volume: o.volume,
      price: o.price,
      stopLimitPrice: o.stopLimitPrice,
      sl: o.sl,
      tp: o.tp,
      magic: o.magic ?? null,
      comment: o.comment ?? null,
      setupTime: o.setupTime ?? null,
    })),
  };
}

/**
 * Keeps `snapshot` as the account's latest unless the stored one has a later `ts` (same `ts`:
 * the newer arrival wins). Returns whether it was stored.
 */
export async function saveSnapshot(db: Db, tenantId: string, accountId: string, snapshot: Snapshot, receivedAt: Date): Promise<boolean> {
  const ts = new Date(snapshot.ts * 1000);
  const rows = await db
    .insert(accountSnapshots)
    .values({ tenantId, accountId, ts, receivedAt, ...toStored(snapshot) })
    .onConflictDoUpdate({
      target: [accountSnapshots.tenantId, accountSnapshots.accountId],
      set: { ts: sql`excluded.ts`, receivedAt: sql`excluded.received_at`, positions: sql`excluded.positions`, orders: sql`excluded.orders` },
      setWhere: lte(accountSnapshots.ts, sql`excluded.ts`),
    })
    .returning({ accountId: accountSnapshots.accountId });
  return rows.length > 0;
}

/** The account's latest snapshot, or null. */
export async function findSnapshot(db: Db, tenantId: string, accountId: string): Promise<AccountSnapshot | null> {
  const [row] = await db.select().from(accountSnapshots).where(ofTenant(accountSnapshots, tenantId, eq(accountSnapshots.accountId, accountId))).limit(1);
  if (!row) return null;
  return { accountId: row.accountId, ts: row.ts.toISOString(), receivedAt: row.receivedAt.toISOString(), positions: row.positions, orders: row.orders };
}

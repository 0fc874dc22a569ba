/**
 * Store of the master snapshot actions (snapshot-actions.ts): the idempotency record of each
 * action — `snapshot:<master id>:<kind>:<ticket>:<snapshot ms>` in idempotency_keys, so a
 * snapshot processed twice applies each action once — and the facts a follow-up event carries
 * (symbol, side, order type, SL/TP of the ticket's newest active leg). The copy engine begins
 * these records itself (a snapshot action has no bridge request of its own); its outbox write
 * completes them (db/idempotency-completion.ts) as for a master request.
 */
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import type { OrderType, Side } from "#contract";
import type { Db } from "../../../db/client.ts";
import { completeIdempotency, type IdempotencyCompletion } from "../../../db/idempotency-completion.ts";
import { idempotencyKeys, signals } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";

/** How long an action's record is kept (as long as master request keys: docs/bridge-protocol.md §4.2). */
const KEY_TTL_MS = 24 * 3600_000;
/** An `in_flight` record older than this died with its process: the action may run again. */
const IN_FLIGHT_LEASE_MS = 30_000;

/**
 * Begins the record of one snapshot action. true: run it; false: it ran (or is running) already —
 * the same snapshot processed again. An expired record, or one left `in_flight` for longer than
 * 30 s, is taken over.
 */
export async function beginSnapshotAction(db: Db, tenantId: string, key: string, now = new Date()): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + KEY_TTL_MS);
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ tenantId, key, requestHash: key, state: "in_flight", createdAt: now, expiresAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return true;
  // Read and take-over in one conditional update: two processes never both take the same record.
  const taken = await db
    .update(idempotencyKeys)
    .set({ state: "in_flight", createdAt: now, expiresAt, responseBody: null, responseStatus: null })
    .where(
      and(
        eq(idempotencyKeys.tenantId, tenantId),
        eq(idempotencyKeys.key, key),
        or(
          lt(idempotencyKeys.expiresAt, now),
          and(eq(idempotencyKeys.state, "in_flight"), lt(idempotencyKeys.createdAt, new Date(now.getTime() - IN_FLIGHT_LEASE_MS))),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

/** Marks an action refused (404/409/400) as done with its error, so the same snapshot does not retry it. */
export async function completeSnapshotAction(db: Db, completion: IdempotencyCompletion): Promise<void> {
  await completeIdempotency(db, completion);
}

/** Drops the record of an action that failed unexpectedly, so the next processing retries it. */
export async function abandonSnapshotAction(db: Db, tenantId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "in_flight")));
}

/** What a follow-up event of a ticket carries besides its ticket: the ticket's newest active leg. */
export interface TicketFacts {
  symbol: string;
  side: Side;
  orderType: OrderType;
  sl: string | null;
  tp: string | null;
}

/** The facts of each listed ticket with an active signal (one query). */
export async function loadTicketFacts(db: Db, tenantId: string, tickets: string[]): Promise<Map<string, TicketFacts>> {
  const facts = new Map<string, TicketFacts>();
  if (tickets.length === 0) return facts;
  const rows = await db
    .select({ ticket: signals.masterTicket, symbol: signals.symbol, side: signals.side, orderType: signals.orderType, sl: signals.sl, tp: signals.tp })
    .from(signals)
    .where(ofTenant(signals, tenantId, and(inArray(signals.masterTicket, [...new Set(tickets)]), eq(signals.status, "active"))))
    .orderBy(desc(signals.leg));
  for (const r of rows) {
    if (!facts.has(r.ticket)) facts.set(r.ticket, { symbol: r.symbol, side: r.side as Side, orderType: r.orderType as OrderType, sl: r.sl, tp: r.tp });
  }
  return facts;
}

/**
 * missed_trade alerts for reconciliation (issue 14): a slave snapshot showing a NEW missing copy
 * or orphan fires the tenant's enabled missed_trade configurations once per difference (the ids
 * already alerted are kept in sync_states.alerted_ids by the caller). Through raiseAlert, so the
 * configuration's rate limit and channels apply; the dispatcher job delivers.
 */
import { and, eq } from "drizzle-orm";
import type { SyncDifference } from "#contract";
import type { Db } from "../../db/client.ts";
import { alertConfigs } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { raiseAlert } from "../alerts/raise-alert.ts";
import type { Firing } from "../alerts/evaluate.ts";

/** Differences that alert: a copy missing, or a copy left without its master position. */
export const ALERTED_KINDS: ReadonlySet<SyncDifference["kind"]> = new Set(["missing_copy", "orphan"]);

/** The firing of one difference: its text names the kind and the tickets. */
export function syncFiring(d: SyncDifference): Firing {
  const summary =
    d.kind === "missing_copy"
      ? `Missing copy: master ticket ${d.masterTicket ?? "?"} (${d.symbol}) has no copy on this slave`
      : `Orphan: slave ticket ${d.slaveTicket ?? "?"} (${d.symbol}) is a copy whose master position is closed or unknown`;
  return { key: `sync:${d.id}`, summary, details: { differenceId: d.id, kind: d.kind, masterTicket: d.masterTicket, slaveTicket: d.slaveTicket, symbol: d.symbol, description: d.description } };
}

/** Raises `fresh` differences on every enabled missed_trade configuration of the tenant; returns how many notifications were queued. */
export async function raiseSyncAlerts(db: Db, slave: AccountRow, fresh: SyncDifference[], now = new Date()): Promise<number> {
  const alertable = fresh.filter((d) => ALERTED_KINDS.has(d.kind));
  if (alertable.length === 0) return 0;
  const configs = await db.select().from(alertConfigs).where(ofTenant(alertConfigs, slave.tenantId, and(eq(alertConfigs.enabled, true), eq(alertConfigs.type, "missed_trade"))));
  const subject = { accountId: slave.id, label: slave.alias ? `${slave.alias} (${slave.accountNumber})` : slave.accountNumber };
  let queued = 0;
  for (const config of configs) {
    for (const d of alertable) {
      if ((await raiseAlert(db, config, subject, syncFiring(d), { now })) === "queued") queued += 1;
    }
  }
  return queued;
}

/**
 * GET /api/overview (issue 16 "Overview for a desk"): the setup checklist, and today's figures
 * since 00:00 UTC. Pure decisions (`checklistFrom`, `todayFrom`) over the facts the queries load.
 */
import type { Overview, OverviewChecklist, OverviewToday } from "#contract";
import type { Db } from "../../db/client.ts";
import { type ChecklistFacts, loadChecklistFacts, loadTodayFacts, loadTodaySkipReasons, type TodayFacts } from "./queries.ts";

/** 00:00 UTC of the day `now` falls in. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The checklist's steps from the facts (see contract/overview.ts for what each step means). */
export function checklistFrom(f: ChecklistFacts): OverviewChecklist {
  const masterConnected = f.mastersConnected > 0;
  const slaveConnected = f.slavesConnected > 0;
  const keyPerTerminal = f.masters > 0 && f.slaves > 0 && f.accountsWithoutKey === 0;
  const mappingsChecked = f.slaves > 0 && f.slavesWithoutSymbols === 0 && f.unknownMappedSymbols === 0;
  return { masterConnected, slaveConnected, keyPerTerminal, mappingsChecked, complete: masterConnected && slaveConnected && keyPerTerminal && mappingsChecked };
}

/** Today's figures; the success rate counts skipped copies as neither success nor failure. */
export function todayFrom(f: TodayFacts, reasons: { reason: string; count: number }[], since: Date): OverviewToday {
  const finished = f.copied + f.failed;
  return {
    since: since.toISOString(),
    pnl: f.pnl,
    tradesCopied: f.copied,
    tradesSkipped: f.leftOut,
    topSkipReasons: reasons,
    copySuccessPct: finished === 0 ? null : Math.round((f.copied / finished) * 100),
    latencyP50: f.latencyP50,
    latencyP95: f.latencyP95,
  };
}

/** The Overview of `tenantId` at `now`. */
export async function getOverview(db: Db, tenantId: string, now = new Date()): Promise<Overview> {
  const since = startOfUtcDay(now);
  const [checklist, today, reasons] = await Promise.all([
    loadChecklistFacts(db, tenantId),
    loadTodayFacts(db, tenantId, since),
    loadTodaySkipReasons(db, tenantId, since),
  ]);
  return { checklist: checklistFrom(checklist), today: todayFrom(today, reasons, since) };
}

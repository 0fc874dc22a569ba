/**
 * GET /api/signals, GET /api/executions (spec §7), /api/executions/summary, /api/executions/verdicts
 * and GET /api/bridge/stats. The lists are keyset-paged (queries.ts): `before` = the previous
 * page's `x-next-cursor` header, sent whenever a page is full.
 */
import { and, count, gte, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  executionSummaryQuerySchema,
  executionVerdictsQuerySchema,
  listExecutionsQuerySchema,
  listSignalsQuerySchema,
  NEXT_CURSOR_HEADER,
  TERMINAL_REFUSED_CODE,
  verdictLabel,
  type ExecutionVerdicts,
} from "#contract";
import { executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { findAccount } from "../accounts/queries.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { bridgeStats } from "../bridge/stats.ts";
import { executionSummary } from "./execution-tally.ts";
import { toExecution, toSignal } from "./mappers.ts";
import { cursorOf, listExecutions, listSignals } from "./queries.ts";

export function registerSignalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/signals", { schema: { description: "Lists master signals, newest first, with filters and paging.", tags: ["Signals"], querystring: listSignalsQuerySchema } }, async (request, reply) => {
    const { status, limit, before } = request.query;
    const page = await listSignals(ctx.db, tenantIdOf(request), { status, limit, before: cursorOf(before) });
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.rows.map(toSignal);
  });

  api.get("/executions", { schema: { description: "Lists slave executions, newest first, with filters and paging.", tags: ["Signals"], querystring: listExecutionsQuerySchema } }, async (request, reply) => {
    const { before, ...q } = request.query;
    const page = await listExecutions(ctx.db, tenantIdOf(request), { ...q, before: cursorOf(before) });
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.rows.map(toExecution);
  });

  api.get("/executions/summary", { schema: { description: "All-time figures of a slave's opening orders: total (except skipped copies), successful (filled or placed), success rate.", tags: ["Signals"], querystring: executionSummaryQuerySchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    // History: a deleted slave's summary stays readable.
    const account = await findAccount(ctx.db, tenantId, request.query.accountId, { includeDeleted: true });
    if (!account) throw notFound("Account");
    return executionSummary(ctx.db, tenantId, account.id);
  });

  api.get("/executions/verdicts", { schema: { description: "Why each slave did or did not copy the given signals (reason codes).", tags: ["Signals"], querystring: executionVerdictsQuerySchema } }, async (request) => {
    const now = new Date();
    const since = request.query.since ? new Date(request.query.since) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return executionVerdicts(ctx, tenantIdOf(request), since);
  });

  api.get("/bridge/stats", { schema: { description: "Bridge statistics: connected terminals, signals and executions today, latency.", tags: ["Signals"] } }, async (request) => bridgeStats(ctx.db, tenantIdOf(request)));
}

/** A copy left out on purpose: skipped, or a queued open cancelled by a pause before hand-out (it carries a reason code). */
const isSkipped = sql`(${executions.status} = 'skipped' or (${executions.status} = 'cancelled' and ${executions.reasonCode} is not null))`;
/** Blocked by a copy rule (rejected with a code) or refused by the terminal (rejected / error). */
const isRejected = sql`${executions.status} in ('rejected', 'error')`;

/**
 * The verdicts of the tenant's opening executions (OPEN / PENDING_OPEN: one per signal and slave)
 * created at or after `since`: copied (queued, then whatever the slave reported), skipped,
 * rejected, and the 5 most frequent reasons of the last two. Two queries on the
 * (tenant_id, created_at) index.
 */
export async function executionVerdicts(ctx: AppContext, tenantId: string, since: Date): Promise<ExecutionVerdicts> {
  const opening = ofTenant(executions, tenantId, inArray(executions.action, ["OPEN", "PENDING_OPEN"]), gte(executions.createdAt, since));
  const code = sql<string>`coalesce(${executions.reasonCode}, ${TERMINAL_REFUSED_CODE})`;
  const [[totals], reasons] = await Promise.all([
    ctx.db
      .select({
        total: count(),
        skipped: sql<number>`(count(*) filter (where ${isSkipped}))::int`,
        rejected: sql<number>`(count(*) filter (where ${isRejected}))::int`,
      })
      .from(executions)
      .where(opening),
    ctx.db
      .select({ code, count: sql<number>`count(*)::int` })
      .from(executions)
      .where(and(opening, sql`(${isSkipped} or ${isRejected})`))
      .groupBy(sql`1`)
      .orderBy(sql`2 desc`, sql`1`)
      .limit(5),
  ]);
  const total = Number(totals?.total ?? 0);
  const skipped = Number(totals?.skipped ?? 0);
  const rejected = Number(totals?.rejected ?? 0);
  return {
    since: since.toISOString(),
    copied: total - skipped - rejected,
    skipped,
    rejected,
    reasons: reasons.map((r) => ({ code: r.code, text: verdictLabel(r.code), count: Number(r.count) })),
  };
}

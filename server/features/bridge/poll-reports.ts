/**
 * Execution reports riding on a slave's poll (docs/bridge-protocol.md §6.2 "Reports on the poll"):
 * each item is checked and applied exactly as POST /v1/slave/execution/report would (§6.3, through
 * the same report batcher, so the items of one poll and the reports arriving meanwhile share a
 * transaction) and answered one by one; one item's 400 / 403 / 404 / 409 never refuses the poll or
 * another item. Saves the slave one HTTP request per order: the report of an order leaves with the
 * poll that waits for the next one.
 */
import { executionReportSchema, type PollReportAnswer } from "#contract";
import type { AccountRow } from "../accounts/mappers.ts";
import type { AppContext } from "../../http/context.ts";
import { AppError, validationFailed, type ErrorIssue } from "../../http/errors.ts";
import { applyReport } from "../copy-engine/apply-report.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { clockOffsets } from "./clock-offsets.ts";

/** The orderId an item names, when it names one as text (for the answer of a malformed item). */
function orderIdOf(item: unknown): string | null {
  if (typeof item !== "object" || item === null) return null;
  const id = (item as { orderId?: unknown }).orderId;
  return typeof id === "string" ? id : null;
}

/** The answer of an item refused with `err`. */
function refused(orderId: string | null, err: AppError): PollReportAnswer {
  const body = err.toBody();
  return { orderId, ok: false, httpStatus: err.status, error: body.error, code: err.code, ...(body.issues ? { issues: body.issues } : {}) };
}

/**
 * Applies `items` (the poll's `reports`) for `slave`, in order of arrival in the batcher, and
 * returns one answer per item in the items' order. An item naming another account (`accountId` /
 * `accountNumber` not the polling slave's) is 403 `forbidden_scope`. Effects are published as
 * each item settles (after its batch's commit). Throws only what is not the item's fault (a
 * database failure): the poll then fails as a whole and the EA sends the reports again (reports
 * are idempotent).
 */
export async function applyPollReports(ctx: AppContext, slave: AccountRow, items: readonly unknown[], receivedAtMs: number): Promise<PollReportAnswer[]> {
  const settled = await Promise.allSettled(
    items.map(async (item, i): Promise<PollReportAnswer> => {
      const parsed = executionReportSchema.safeParse(item);
      if (!parsed.success) {
        const issues: ErrorIssue[] = parsed.error.issues.map((x) => ({ path: ["reports", i, ...x.path].join("."), message: x.message }));
        return refused(orderIdOf(item), validationFailed(issues, "Invalid report"));
      }
      const report = parsed.data;
      if ((report.accountId && report.accountId !== slave.id) || (report.accountNumber && report.accountNumber !== slave.accountNumber)) {
        return refused(report.orderId, new AppError("forbidden_scope", "A report on a poll can only be about the polling account"));
      }
      // A stored report's sentAtMs is when it was first sent: a late sample only bounds the offset
      // from above, and the estimate is the minimum (clock-offsets.ts).
      const clockOffsetMs = clockOffsets.observe(slave.id, report.sentAtMs, receivedAtMs);
      const { body, effects } = await applyReport(ctx, slave, report, { signature: null, clockOffsetMs });
      publishEffects(ctx, slave.tenantId, effects);
      return { orderId: report.orderId, ...body };
    }),
  );
  return settled.map((s, i) => {
    if (s.status === "fulfilled") return s.value;
    if (s.reason instanceof AppError) return refused(orderIdOf(items[i]), s.reason);
    throw s.reason;
  });
}

/**
 * Turns a firing condition into notifications, under the configuration's rate limit: at most one
 * notification per `rateLimit` seconds per (configuration, account). Firings inside the window
 * are counted in alert_states.suppressed_count (the next notification reports them), never lost.
 * A condition already alerted (same key; for time-keyed conditions, any key not newer) is ignored.
 * Notifications are queued in alert_notifications, one per configured channel, and delivered by
 * the dispatcher — never on the caller's path.
 */
import { and, eq, sql } from "drizzle-orm";
import type { AlertType } from "#contract";
import type { Db } from "../../db/client.ts";
import { alertNotifications, alertStates } from "../../db/schema.ts";
import type { AlertChannels } from "#contract";
import { configuredChannels } from "./channels.ts";
import type { Firing } from "./evaluate.ts";
import type { AlertConfigRow } from "./mappers.ts";

/** alert_states key for tenant-wide conditions (no account). */
export const NO_ACCOUNT = "00000000-0000-0000-0000-000000000000";

export interface AlertSubject {
  accountId: string | null;
  /** e.g. "S1 (7001)" */
  label: string;
}

export type RaiseOutcome = "queued" | "suppressed" | "duplicate" | "no_channel";

const TYPE_LABEL: Record<AlertType, string> = {
  copy_failure: "Copy failure",
  slave_disconnect: "Slave disconnected",
  missed_trade: "Missed trade",
  slippage_high: "High slippage",
  daily_dd: "Daily drawdown",
  latency_high: "High latency",
};

/** Subject and text of a notification. */
export function renderAlert(config: Pick<AlertConfigRow, "name" | "type">, subject: AlertSubject, firing: Firing, suppressed: number, at: Date) {
  const lines = [firing.summary, `Account: ${subject.label}`, `Alert: ${config.name}`, `Time: ${at.toISOString()}`];
  if (suppressed > 0) lines.push(`(${suppressed} more alert${suppressed === 1 ? "" : "s"} suppressed by the rate limit since the last notification)`);
  return { subject: `[CopyBridge] ${TYPE_LABEL[config.type as AlertType] ?? config.type}: ${subject.label}`, text: lines.join("\n") };
}

/** `monotonic`: the key is a timestamp-like string and older keys are already handled. */
export async function raiseAlert(db: Db, config: AlertConfigRow, subject: AlertSubject, firing: Firing, opts: { monotonic?: boolean; now?: Date } = {}): Promise<RaiseOutcome> {
  const now = opts.now ?? new Date();
  const channels = configuredChannels(config.channels as AlertChannels);
  if (channels.length === 0) return "no_channel";
  const accountId = subject.accountId ?? NO_ACCOUNT;
  return db.transaction(async (tx) => {
    await tx.insert(alertStates).values({ tenantId: config.tenantId, configId: config.id, accountId }).onConflictDoNothing();
    const [state] = await tx
      .select()
      .from(alertStates)
      .where(and(eq(alertStates.configId, config.id), eq(alertStates.accountId, accountId)))
      .for("update");
    if (!state) throw new Error("alert state vanished");
    const last = state.lastConditionKey;
    if (last !== null && (opts.monotonic ? firing.key <= last : firing.key === last)) return "duplicate";
    const where = and(eq(alertStates.configId, config.id), eq(alertStates.accountId, accountId));
    if (state.lastNotifiedAt && now.getTime() - state.lastNotifiedAt.getTime() < config.rateLimitS * 1000) {
      await tx.update(alertStates).set({ suppressedCount: sql`${alertStates.suppressedCount} + 1`, lastConditionKey: firing.key }).where(where);
      return "suppressed";
    }
    const message = renderAlert(config, subject, firing, state.suppressedCount, now);
    await tx.insert(alertNotifications).values(
      channels.map((channel) => ({
        tenantId: config.tenantId,
        configId: config.id,
        accountId: subject.accountId,
        channel,
        payload: { ...message, type: config.type, details: firing.details, suppressed: state.suppressedCount },
        nextAttemptAt: now,
      })),
    );
    await tx.update(alertStates).set({ lastNotifiedAt: now, suppressedCount: 0, lastConditionKey: firing.key }).where(where);
    return "queued";
  });
}

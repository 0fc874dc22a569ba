/**
 * Delivers queued alert notifications (alert_notifications) through their channel, off the
 * copy engine's path. A failure is retried with exponential backoff (ALERT_RETRY_BASE_MS × 2^n)
 * up to ALERT_MAX_ATTEMPTS, then recorded as failed. Every delivery, retry and final failure is
 * an audit log entry. Claims rows with FOR UPDATE SKIP LOCKED and a short in-progress lease, so
 * several instances never send one notification twice.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { AlertChannel, AlertChannels } from "#contract";
import type { Db } from "../../db/client.ts";
import { alertConfigs, alertNotifications } from "../../db/schema.ts";
import type { Config } from "../../config.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { AlertDeliveryError, deliveryReason, type AlertChannelSender, type AlertMessage } from "./channels.ts";

const BATCH = 20;
const SENDING_LEASE_MS = 60_000;

type NotificationRow = typeof alertNotifications.$inferSelect;

export class AlertDispatcher {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly sender: AlertChannelSender,
    private readonly opts: Config["alerts"],
  ) {}

  /** Runs a delivery pass now (coalescing calls made while one runs). */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runOnce()
      .catch((err: unknown) => {
        console.error("alert dispatch failed:", err);
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Waits for the pass in progress, if any (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** One pass: claim due notifications and deliver them. Returns how many were handled. */
  async runOnce(now = new Date()): Promise<number> {
    const due = this.db
      .select({ id: alertNotifications.id })
      .from(alertNotifications)
      .where(and(eq(alertNotifications.status, "pending"), lte(alertNotifications.nextAttemptAt, now)))
      .orderBy(asc(alertNotifications.nextAttemptAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    const claimed = await this.db
      .update(alertNotifications)
      .set({ nextAttemptAt: new Date(now.getTime() + SENDING_LEASE_MS) })
      .where(inArray(alertNotifications.id, due))
      .returning();
    await Promise.all(claimed.map((n) => this.deliver(n)));
    return claimed.length;
  }

  private async deliver(n: NotificationRow): Promise<void> {
    const payload = n.payload as AlertMessage & { type?: string };
    const [config] = n.configId
      ? await this.db.select().from(alertConfigs).where(and(eq(alertConfigs.id, n.configId), eq(alertConfigs.tenantId, n.tenantId))).limit(1)
      : [];
    const attempts = n.attempts + 1;
    const channel = n.channel as AlertChannel;
    const name = config?.name ?? "deleted alert";
    try {
      if (!config) throw new AlertDeliveryError("The alert configuration was deleted");
      await this.sender.send(channel, config.channels as AlertChannels, payload);
      await this.db.update(alertNotifications).set({ status: "sent", attempts, sentAt: new Date(), lastError: null }).where(eq(alertNotifications.id, n.id));
      await writeAuditLog(this.db, {
        tenantId: n.tenantId,
        category: "system",
        source: "alerts",
        message: `Alert "${name}" sent via ${channel}`,
        accountId: n.accountId,
        metadata: { notificationId: n.id, channel, attempts, subject: payload.subject },
      });
    } catch (err) {
      // Our own short reason only: the remote's reply is never stored or audited.
      const reason = deliveryReason(err);
      const final = attempts >= this.opts.maxAttempts || !config;
      const retryAt = new Date(Date.now() + this.opts.retryBaseMs * 2 ** (attempts - 1));
      await this.db
        .update(alertNotifications)
        .set({ status: final ? "failed" : "pending", attempts, lastError: reason.slice(0, 500), nextAttemptAt: final ? sql`${alertNotifications.nextAttemptAt}` : retryAt })
        .where(eq(alertNotifications.id, n.id));
      await writeAuditLog(this.db, {
        tenantId: n.tenantId,
        level: final ? "error" : "warning",
        category: "system",
        source: "alerts",
        message: final
          ? `Alert "${name}" could not be delivered via ${channel} after ${attempts} attempt(s): ${reason}`
          : `Alert "${name}" delivery via ${channel} failed (attempt ${attempts}), retrying: ${reason}`,
        accountId: n.accountId,
        metadata: { notificationId: n.id, channel, attempts, error: reason, ...(final ? {} : { retryAt: retryAt.toISOString() }) },
      });
    }
  }
}

/**
 * The alert engine's inputs: execution, heartbeat and close-only domain events (copy_failure,
 * slippage_high, latency_high, daily_dd — close-only alerts go to the daily_dd configs) and a
 * periodic monitor (slave_disconnect, missed_trade). Each fired condition goes through raiseAlert
 * (rate limit) and wakes the dispatcher.
 */
import { and, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import type { AlertThresholds, AlertType } from "#contract";
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../db/raw.ts";
import { accounts, alertConfigs, executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { dailyLossPct } from "../copy-engine/domain/protection.ts";
import type { ExecutionRow } from "../signals/mappers.ts";
import type { AlertDispatcher } from "./dispatcher.ts";
import { evaluateCloseOnly, evaluateDailyDrawdown, evaluateDisconnect, evaluateExecution, evaluateMissedTrade, missedTradeSeconds, type ExecutionFacts } from "./evaluate.ts";
import type { AlertConfigRow } from "./mappers.ts";
import { raiseAlert, type AlertSubject } from "./raise-alert.ts";

const EXECUTION_TYPES: AlertType[] = ["copy_failure", "slippage_high", "latency_high"];

/**
 * A tenant's enabled configurations of some types: fixed text (db/raw.ts), read for every batch of
 * reports (execution alerts), where Drizzle built it per call.
 */
const tenantConfigs = rawStatement(
  "alerts_tenant_enabled_configs",
  `select ${tableColumns(alertConfigs)} from alert_configs where tenant_id = $1::uuid and enabled and type = any($2::text[])`,
  tableRow(alertConfigs),
);

async function enabledConfigs(db: Db, tenantId: string | null, types: AlertType[]): Promise<AlertConfigRow[]> {
  if (tenantId) return runRaw(db, tenantConfigs, [tenantId, types]);
  const where = and(eq(alertConfigs.enabled, true), inArray(alertConfigs.type, types));
  return db
    .select()
    .from(alertConfigs)
    .where(tenantId ? ofTenant(alertConfigs, tenantId, where) : where);
}

const subjectOf = (a: Pick<AccountRow, "id" | "alias" | "accountNumber">): AlertSubject => ({
  accountId: a.id,
  label: a.alias ? `${a.alias} (${a.accountNumber})` : a.accountNumber,
});

const facts = (e: ExecutionRow): ExecutionFacts => ({
  id: e.id,
  action: e.action,
  status: e.status,
  symbol: e.symbol,
  side: e.side,
  volume: e.volume,
  errorMessage: e.errorMessage,
  errorCode: e.errorCode,
  latencyMs: e.latencyMs,
  slippagePts: e.slippagePts,
});

export class AlertObservers {
  /** Per tenant: execution results published during this turn of the event loop, not yet evaluated. */
  private readonly queued = new Map<string, ExecutionRow[]>();

  constructor(
    private readonly ctx: AppContext,
    private readonly dispatcher: AlertDispatcher,
  ) {}

  install(): void {
    this.ctx.events.on("executions", (e) => this.queueExecutions(e.tenantId, e.rows));
    this.ctx.events.on("heartbeat", (e) => this.onHeartbeat(e.account));
    this.ctx.events.on("close_only", (e) => this.onCloseOnly(e.account, e.code, e.reason, e.brokerDay));
  }

  private async raise(config: AlertConfigRow, subject: AlertSubject, firing: Parameters<typeof raiseAlert>[3], monotonic = false): Promise<void> {
    const outcome = await raiseAlert(this.ctx.db, config, subject, firing, { monotonic });
    if (outcome === "queued") this.dispatcher.wake();
  }

  /**
   * Evaluates the execution results of one turn together, per tenant (onExecutions on the next
   * turn): a batch of reports committed together is one read of the alert configs, not one each.
   * Resolves once they are evaluated.
   */
  queueExecutions(tenantId: string, rows: ExecutionRow[]): Promise<void> {
    const queued = this.queued.get(tenantId);
    if (queued) {
      queued.push(...rows);
      return this.flushing;
    }
    this.queued.set(tenantId, [...rows]);
    if (this.queued.size === 1) {
      this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        const all = [...this.queued];
        this.queued.clear();
        // One tenant's failure does not hold the others back; the first is rethrown (logged by the bus).
        const failures: Error[] = [];
        for (const [tenant, list] of all) {
          await this.onExecutions(tenant, list).catch((err: unknown) => failures.push(err instanceof Error ? err : new Error(String(err))));
        }
        if (failures[0]) throw failures[0];
      });
    }
    return this.flushing;
  }

  private flushing: Promise<void> = Promise.resolve();

  async onExecutions(tenantId: string, all: ExecutionRow[]): Promise<void> {
    // A pending order has no outcome yet: skipping it keeps a master signal's aftermath query-free.
    const rows = all.filter((r) => r.status !== "pending");
    if (rows.length === 0) return;
    const configs = await enabledConfigs(this.ctx.db, tenantId, EXECUTION_TYPES);
    if (configs.length === 0) return;
    const ids = [...new Set(rows.map((r) => r.slaveAccountId))];
    // A deleted slave raises no alert (its pending orders are cancelled when it is deleted).
    const accountRows = await this.ctx.db.select().from(accounts).where(ofTenant(accounts, tenantId, inArray(accounts.id, ids), isNull(accounts.deletedAt)));
    const byId = new Map(accountRows.map((a) => [a.id, a]));
    for (const row of rows) {
      const account = byId.get(row.slaveAccountId);
      if (!account) continue;
      for (const config of configs) {
        const firing = evaluateExecution(config.type as AlertType, config.thresholds as AlertThresholds, facts(row));
        if (firing) await this.raise(config, subjectOf(account), firing);
      }
    }
  }

  /**
   * daily_dd: the slave's loss since the equity at the start of its broker day (accounts
   * day_start_equity / broker_day, written by the same heartbeat), in percent.
   */
  async onHeartbeat(account: AccountRow): Promise<void> {
    if (account.role !== "SLAVE" || account.brokerDay === null || account.dayStartEquity === null) return;
    const loss = Number(dailyLossPct(account.dayStartEquity, account.equity).toFixed(4));
    if (loss <= 0) return;
    for (const config of await enabledConfigs(this.ctx.db, account.tenantId, ["daily_dd"])) {
      const firing = evaluateDailyDrawdown(config.thresholds as AlertThresholds, loss, account.brokerDay);
      if (firing) await this.raise(config, subjectOf(account), firing, true);
    }
  }

  /**
   * A slave went close-only: one alert per code and broker day through every enabled daily_dd
   * config, whatever its threshold. Raised with an exact-key check (not monotonic), so it is never
   * taken for an already-sent dd:<day> alert; the config's rate limit still applies. A dd:<day>
   * alert sent before it that day may then be sent once more (the config keeps one last key).
   */
  async onCloseOnly(account: AccountRow, code: string, reason: string, brokerDay: string): Promise<void> {
    const subject = subjectOf(account);
    for (const config of await enabledConfigs(this.ctx.db, account.tenantId, ["daily_dd"])) {
      await this.raise(config, subject, evaluateCloseOnly(subject.label, code, reason, brokerDay));
    }
  }

  /** Periodic: silent slave EAs and orders left unreported. */
  async monitor(now = new Date()): Promise<void> {
    for (const config of await enabledConfigs(this.ctx.db, null, ["slave_disconnect"])) {
      const slaves = await this.ctx.db
        .select()
        .from(accounts)
        .where(ofTenant(accounts, config.tenantId, eq(accounts.role, "SLAVE"), isNotNull(accounts.lastHeartbeat), isNull(accounts.deletedAt)));
      for (const slave of slaves) {
        const firing = slave.lastHeartbeat ? evaluateDisconnect(config.thresholds as AlertThresholds, slave.lastHeartbeat, now) : null;
        if (firing) await this.raise(config, subjectOf(slave), firing, true);
      }
    }
    for (const config of await enabledConfigs(this.ctx.db, null, ["missed_trade"])) {
      const thresholds = config.thresholds as AlertThresholds;
      const cutoff = new Date(now.getTime() - missedTradeSeconds(thresholds) * 1000);
      const rows = await this.ctx.db
        .select({ exec: executions, account: accounts })
        .from(executions)
        .innerJoin(accounts, and(eq(accounts.id, executions.slaveAccountId), isNull(accounts.deletedAt)))
        .where(ofTenant(executions, config.tenantId, eq(executions.status, "pending"), lt(executions.createdAt, cutoff)))
        .orderBy(executions.createdAt, executions.id)
        .limit(200);
      for (const { exec, account } of rows) {
        const firing = evaluateMissedTrade(thresholds, facts(exec), exec.createdAt, now);
        // Keyed by creation time: each unreported order alerts once, in order.
        if (firing) await this.raise(config, subjectOf(account), { ...firing, key: `${exec.createdAt.toISOString()}|${exec.id}` }, true);
      }
    }
  }
}

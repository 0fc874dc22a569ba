import type { SyncDifference, SyncPlan } from "#contract";
import { Badge } from "@/components/ui/badge";
import { DIFFERENCE_KIND_LABELS, differenceIdLabel, orderText, planSummaryText, pricesText, ticketsText, volumesText } from "@/lib/sync/sync-text";
import { cn } from "@/lib/utils";

/**
 * The differences of a sync status (issue 14): per difference its kind in words, symbol and side,
 * tickets, volumes, prices and the server's sentence. Test ids `list-sync-differences`,
 * `sync-difference-<difference id>` (with `data-kind`).
 */
export function SyncDifferenceList({ differences }: { differences: readonly SyncDifference[] }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Differences" data-testid="list-sync-differences">
      {differences.map((d) => {
        const volumes = volumesText(d);
        const prices = pricesText(d);
        return (
          <li key={d.id} className="flex flex-col gap-1 rounded-md border bg-muted/30 p-3 text-sm" data-testid={`sync-difference-${d.id}`} data-kind={d.kind}>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={d.kind === "orphan" || d.kind === "missed_close" ? "destructive" : "warning"} data-testid="text-difference-kind">
                {DIFFERENCE_KIND_LABELS[d.kind]}
              </Badge>
              <span className="font-semibold">{d.symbol}</span>
              {d.side ? <span className={cn("text-xs font-semibold", d.side === "BUY" ? "text-success" : "text-destructive")}>{d.side}</span> : null}
              <span className="text-xs text-muted-foreground tabular">{ticketsText(d)}</span>
            </div>
            <p data-testid="text-difference-description">{d.description}</p>
            {volumes || prices ? (
              <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground tabular">
                {volumes ? <span data-testid="text-difference-volumes">{volumes}</span> : null}
                {prices ? <span data-testid="text-difference-prices">{prices}</span> : null}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A plan as the dry run returned it: a one-line summary, each order (action, symbol, side,
 * volume, tickets) with its reason, then the differences it leaves alone and why. Test ids
 * `sync-plan` (`data-plan-id`), `text-plan-summary`, `text-plan-id`, `plan-order-<n>`,
 * `plan-skipped-<n>`.
 */
export function SyncPlanView({ plan }: { plan: SyncPlan }) {
  return (
    <section className="flex flex-col gap-2 rounded-md border p-3" aria-label="Repair plan" data-testid="sync-plan" data-plan-id={plan.planId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold">
          Plan: <span data-testid="text-plan-summary">{planSummaryText(plan)}</span>
        </h3>
        <span className="font-mono text-xs text-muted-foreground" title={plan.planId} data-testid="text-plan-id">
          Plan {plan.planId.slice(0, 12)}
        </span>
      </div>
      {plan.orders.length > 0 ? (
        <ol className="flex flex-col gap-1.5" aria-label="Orders to send">
          {plan.orders.map((o, i) => (
            <li key={`${o.differenceId}-${i}`} className="flex flex-col text-sm" data-testid={`plan-order-${i}`} data-action={o.action}>
              <span className="font-medium tabular" data-testid="text-order">
                {orderText(o)}
              </span>
              <span className="text-xs text-muted-foreground" data-testid="text-order-reason">
                {o.reason}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {plan.skipped.length > 0 ? (
        <div className="flex flex-col gap-1">
          <h4 className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">Not repaired</h4>
          <ul className="flex flex-col gap-1" aria-label="Skipped differences">
            {plan.skipped.map((s, i) => (
              <li key={`${s.differenceId}-${i}`} className="text-sm" data-testid={`plan-skipped-${i}`}>
                <span className="font-medium">{differenceIdLabel(s.differenceId)}</span>: <span className="text-muted-foreground">{s.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** The orders of a plan as a plain list (inside the Apply confirmation). */
export function PlanOrdersList({ plan }: { plan: SyncPlan }) {
  return (
    <ol className="flex max-h-60 list-decimal flex-col gap-1 overflow-y-auto pl-5 text-sm" aria-label="Orders to send" data-testid="list-confirm-orders">
      {plan.orders.map((o, i) => (
        <li key={`${o.differenceId}-${i}`} className="tabular">
          {orderText(o)}
        </li>
      ))}
    </ol>
  );
}

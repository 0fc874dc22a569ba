import type { Account } from "#contract";
import { AccountStatusBadge } from "@/components/account-status-badge";
import { CloseOnlyBadge } from "@/components/close-only-badge";
import { DetailRow } from "@/components/detail-row";
import { SyncStatusBadge } from "@/components/sync/sync-status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useSlaveAccounts } from "@/lib/account-queries";
import { formatRelativeTime, formatUsd } from "@/lib/format";

/**
 * §2 Overview slave grid: one compact card per slave; 'No slave accounts configured' when none.
 * A close-only slave shows the Close-only badge (reason in its title) under its status, and every
 * slave its sync status (issue 14).
 */
export function OverviewSlaveGrid({ now }: { now: number }) {
  const { slaves, isLoading } = useSlaveAccounts();
  return (
    <section aria-labelledby="overview-slaves-title" className="flex flex-col gap-3">
      <h2 id="overview-slaves-title" className="text-lg font-semibold">
        Slave Accounts <span className="text-sm font-normal text-muted-foreground">({slaves.length})</span>
      </h2>
      {isLoading ? (
        <Spinner />
      ) : slaves.length === 0 ? (
        <Card>
          <CardContent className="py-8 text-center text-sm text-muted-foreground" data-testid="text-no-slaves">
            No slave accounts configured
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {slaves.map((slave, index) => (
            <OverviewSlaveCard key={slave.id} slave={slave} index={index} now={now} />
          ))}
        </div>
      )}
    </section>
  );
}

function OverviewSlaveCard({ slave, index, now }: { slave: Account; index: number; now: number }) {
  return (
    <Card data-testid={`card-slave-${slave.id}`}>
      <CardHeader className="flex-row items-start justify-between gap-3 pb-3">
        <div className="min-w-0">
          <CardTitle className="truncate text-base">{slave.alias || `Slave #${index + 1}`}</CardTitle>
          <p className="truncate text-sm text-muted-foreground">{slave.broker || "Unknown"}</p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <AccountStatusBadge status={slave.status} testId={`status-slave-${slave.id}`} lastHeartbeat={slave.lastHeartbeat} />
          <CloseOnlyBadge account={slave} now={now} />
          <SyncStatusBadge accountId={slave.id} />
        </div>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-1.5">
          <DetailRow label="Account Number" value={slave.accountNumber} />
          <DetailRow label="Balance" value={formatUsd(slave.balance)} testId={`text-balance-${slave.id}`} />
          <DetailRow label="Equity" value={formatUsd(slave.equity)} testId={`text-equity-${slave.id}`} />
          <DetailRow label="Platform" value={slave.platform} />
          <DetailRow label="Last Seen" value={formatRelativeTime(slave.lastHeartbeat, now, { hours: true })} testId={`text-last-seen-${slave.id}`} />
        </dl>
      </CardContent>
    </Card>
  );
}

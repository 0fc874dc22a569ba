import type { Account } from "#contract";
import { Pencil, Power, Trash } from "lucide-react";
import type { ReactNode } from "react";
import { AccountStatusBadge } from "@/components/account-status-badge";
import { CloseOnlyBadge } from "@/components/close-only-badge";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { SyncButton } from "@/components/sync/sync-panel";
import { SyncStatusBadge } from "@/components/sync/sync-status-badge";
import { DetailRow } from "@/components/detail-row";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDate, formatRelativeTime, formatUsd } from "@/lib/format";
import { useResumeCopying } from "@/lib/resume-copying";
import { DeleteAccountDescription } from "./delete-account-description";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

export interface SlaveAccountCardProps {
  account: Account;
  /** Position in the list, for the 'Slave Account #n' fallback title. */
  index: number;
  now: number;
  onEdit: (account: Account) => void;
  onToggleStatus: (account: Account) => void;
  onDelete: (account: Account) => void;
  /** A status change of this account is in flight. */
  toggling: boolean;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2 rounded-md border bg-muted/30 p-3">
      <h3 className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">{title}</h3>
      <dl className="flex flex-col gap-1.5">{children}</dl>
    </section>
  );
}

/**
 * §2 /slaves card: title, broker, status badge, Edit / Disable|Enable / Delete, and the four
 * sections Account Details, Account Balance, Connection and Settings. A close-only slave (issue 12
 * protection) also shows the Close-only badge with its Resume button beside the status, and the
 * reason under the title. Issue 14: the sync status badge beside them and a "Sync" button opening
 * the differences panel (Dry run / Apply).
 */
export function SlaveAccountCard({ account, index, now, onEdit, onToggleStatus, onDelete, toggling }: SlaveAccountCardProps) {
  const id = account.id;
  const resume = useResumeCopying();
  const manage = usePermission("accounts.manage");
  return (
    <Card data-testid={`card-slave-${id}`}>
      <CardHeader className="flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <div className="min-w-0">
            <CardTitle className="truncate text-lg" data-testid={`text-slave-title-${id}`}>
              {account.alias || `Slave Account #${index + 1}`}
            </CardTitle>
            <p className="truncate text-sm text-muted-foreground">{account.broker}</p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <AccountStatusBadge status={account.status} testId={`status-slave-${id}`} lastHeartbeat={account.lastHeartbeat} />
            <CloseOnlyBadge account={account} now={now} onResume={() => resume.mutate(account)} resuming={resume.isPending} />
            <SyncStatusBadge accountId={id} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <SyncButton account={account} />
          <PermissionTooltip reason={manage.reason}>
            <Button variant="outline" size="sm" onClick={() => onEdit(account)} disabled={!manage.allowed} data-testid={`button-edit-slave-${id}`}>
              <Pencil />
              Edit
            </Button>
          </PermissionTooltip>
          <PermissionTooltip reason={manage.reason}>
            <Button variant="outline" size="sm" onClick={() => onToggleStatus(account)} disabled={toggling || !manage.allowed} data-testid={`button-toggle-slave-${id}`}>
              <Power />
              {account.status === "active" ? "Disable" : "Enable"}
            </Button>
          </PermissionTooltip>
          <PermissionTooltip reason={manage.reason}>
            <ConfirmDialog
              title="Delete Account"
              description={<DeleteAccountDescription account={account} />}
              testId="dialog-confirm-account-delete"
              confirmLabel="Delete"
              destructive
              onConfirm={() => onDelete(account)}
              trigger={
                <Button variant="destructive" size="sm" disabled={!manage.allowed} data-testid={`button-delete-slave-${id}`}>
                  <Trash />
                  Delete
                </Button>
              }
            />
          </PermissionTooltip>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {account.closeOnly ? (
          <p className="col-span-full text-sm text-warning" data-testid={`text-close-only-reason-${id}`}>
            No new trades: {account.closeOnly.reason}
          </p>
        ) : null}
        <Section title="Account Details">
          <DetailRow label="Account Number" value={account.accountNumber} testId={`text-account-number-${id}`} />
          <DetailRow label="Broker" value={account.broker} />
          <DetailRow label="Platform" value={account.platform} testId={`text-platform-${id}`} />
        </Section>
        <Section title="Account Balance">
          <DetailRow label="Balance" value={formatUsd(account.balance)} testId={`text-balance-${id}`} />
          <DetailRow label="Equity" value={formatUsd(account.equity)} testId={`text-equity-${id}`} />
          <DetailRow label="Currency" value={account.currency || "USD"} />
        </Section>
        <Section title="Connection">
          <DetailRow label="Status" value={account.status} />
          <DetailRow
            label="Last Heartbeat"
            value={formatRelativeTime(account.lastHeartbeat, now, { hours: true })}
            testId={`text-last-heartbeat-${id}`}
          />
          <DetailRow label="Created" value={formatDate(account.createdAt)} />
        </Section>
        <Section title="Settings">
          <DetailRow label="Role" value={account.role} />
          <DetailRow label="Settings" value={account.settings != null ? "Custom" : "Default"} testId={`text-settings-${id}`} />
        </Section>
      </CardContent>
    </Card>
  );
}

import { useState } from "react";
import { AccountStatusBadge } from "@/components/account-status-badge";
import { DetailRow } from "@/components/detail-row";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useMasterAccount } from "@/lib/account-queries";
import { formatRelativeTime, formatUsd } from "@/lib/format";
import { useSaveMasterAccount } from "../api/master-mutations";
import { AccountFormDialog, emptyAccountForm } from "./account-form-dialog";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2 Overview master card: status, account number, balance, equity, broker, platform, last
 * heartbeat; 'Add Master' or 'Replace Master' opens the account form (POST or PUT, §7).
 */
export function OverviewMasterCard({ now }: { now: number }) {
  const { master, isLoading } = useMasterAccount();
  const [open, setOpen] = useState(false);
  const save = useSaveMasterAccount(master);
  const manage = usePermission("accounts.manage");

  const initialValues = master
    ? { accountNumber: master.accountNumber, alias: master.alias ?? "", broker: master.broker, platform: master.platform, role: "MASTER" as const, status: "active" as const }
    : emptyAccountForm("MASTER", "MT5");

  return (
    <Card data-testid="card-master">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <CardTitle>Master Account</CardTitle>
          {master ? <AccountStatusBadge status={master.status} testId="status-master" lastHeartbeat={master.lastHeartbeat} /> : null}
        </div>
        <PermissionTooltip reason={manage.reason}>
          <Button size="sm" onClick={() => setOpen(true)} disabled={isLoading || !manage.allowed} data-testid="button-add-master">
            {master ? "Replace Master" : "Add Master"}
          </Button>
        </PermissionTooltip>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Spinner />
        ) : master ? (
          <dl className="grid gap-x-8 gap-y-2 sm:grid-cols-2">
            <DetailRow label="Account Number" value={master.accountNumber} testId="text-master-account-number" />
            <DetailRow label="Broker" value={master.broker} testId="text-master-broker" />
            <DetailRow label="Balance" value={formatUsd(master.balance)} testId="text-master-balance" />
            <DetailRow label="Platform" value={master.platform} testId="text-master-platform" />
            <DetailRow label="Equity" value={formatUsd(master.equity)} testId="text-master-equity" />
            <DetailRow label="Last Heartbeat" value={formatRelativeTime(master.lastHeartbeat, now)} testId="text-master-heartbeat" />
          </dl>
        ) : (
          <p className="py-4 text-center text-sm text-muted-foreground" data-testid="text-no-master">
            No master account configured
          </p>
        )}
      </CardContent>
      <AccountFormDialog
        open={open}
        onOpenChange={setOpen}
        testId="dialog-master-account"
        title={master ? "Replace Master Account" : "Add Master Account"}
        description="The master account is the MT5 terminal whose trades are copied to your slave accounts."
        initialValues={initialValues}
        platforms={["MT5", "MT4"]}
        markRequired
        brokerPlaceholder="e.g., IC Markets, Pepperstone, FTMO"
        submitLabel={master ? "Replace Master" : "Add Master"}
        pendingLabel="Saving..."
        pending={save.isPending}
        onSubmit={(values) => save.mutate(values, { onSuccess: () => setOpen(false) })}
      />
    </Card>
  );
}

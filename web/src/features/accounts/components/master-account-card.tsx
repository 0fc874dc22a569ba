import type { Account } from "#contract";
import { Trash } from "lucide-react";
import { Link } from "react-router";
import { AccountStatusBadge } from "@/components/account-status-badge";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { DetailRow } from "@/components/detail-row";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { formatMoney } from "@/lib/format";
import { useDeleteMasterAccount } from "../api/master-mutations";
import { DeleteAccountDescription } from "./delete-account-description";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2 /master card: alias or 'Account {number}', broker and platform, status badge (master
 * palette), balances in the account currency, server and login once the EA reported them.
 */
export function MasterAccountCard({ master }: { master: Account }) {
  const remove = useDeleteMasterAccount();
  const manage = usePermission("accounts.manage");
  const connected = Boolean(master.server || master.login);

  return (
    <Card data-testid="card-master">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle className="truncate text-lg" data-testid="text-master-title">
            {master.alias || `Account ${master.accountNumber}`}
          </CardTitle>
          <CardDescription>
            {master.broker} • {master.platform}
          </CardDescription>
        </div>
        <AccountStatusBadge status={master.status} palette="master" testId="status-master" lastHeartbeat={master.lastHeartbeat} />
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid gap-x-8 gap-y-2 sm:grid-cols-2">
          <DetailRow label="Account Number" value={master.accountNumber} testId="text-master-account-number" />
          <DetailRow label="Broker" value={master.broker} testId="text-master-broker" />
          <DetailRow label="Balance" value={formatMoney(master.balance, master.currency)} testId="text-master-balance" />
          <DetailRow label="Equity" value={formatMoney(master.equity, master.currency)} testId="text-master-equity" />
          {master.server ? <DetailRow label="Server" value={master.server} testId="text-master-server" /> : null}
          {master.login ? <DetailRow label="Login" value={master.login} testId="text-master-login" /> : null}
        </dl>
        {connected ? null : (
          <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">
            <span data-testid="text-waiting-ea">Waiting for Master EA connection...</span>{" "}
            {/* Issue 10: from the waiting text to the install steps. */}
            <Link to="/bridge?tab=connect" className="font-medium text-primary underline-offset-4 hover:underline" data-testid="link-connect-terminal">
              How to connect a terminal
            </Link>
          </p>
        )}
      </CardContent>
      <CardFooter className="justify-end">
        <PermissionTooltip reason={manage.reason}>
          <ConfirmDialog
            title="Delete Account"
            description={<DeleteAccountDescription account={master} />}
            testId="dialog-confirm-account-delete"
            confirmLabel="Delete"
            destructive
            onConfirm={() => remove.mutate(master.id)}
            trigger={
              <Button variant="destructive" size="sm" disabled={remove.isPending || !manage.allowed} data-testid="button-delete-master">
                <Trash />
                Delete Account
              </Button>
            }
          />
        </PermissionTooltip>
      </CardFooter>
    </Card>
  );
}

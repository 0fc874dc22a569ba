import { Crown, Plus } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useMasterAccount } from "@/lib/account-queries";
import { useAddMasterAccount } from "../api/master-mutations";
import { useAccountLiveSync } from "../api/use-account-live-sync";
import { AccountFormDialog, emptyAccountForm } from "./account-form-dialog";
import { MasterAccountCard } from "./master-account-card";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/** §2 /master: the single master account, its add dialog and deletion. */
export function MasterAccountPage() {
  useAccountLiveSync();
  const { master, isLoading } = useMasterAccount();
  const [open, setOpen] = useState(false);
  const add = useAddMasterAccount();
  const manage = usePermission("accounts.manage");

  return (
    <div className="flex flex-col gap-6" data-testid="page-master-account">
      <PageHeader
        title="Master Account"
        description="Manage the master trading account that signals will be copied from"
        actions={
          isLoading || master ? null : (
            <PermissionTooltip reason={manage.reason}>
              <Button onClick={() => setOpen(true)} disabled={!manage.allowed} data-testid="button-add-master">
                <Plus />
                Add Master Account
              </Button>
            </PermissionTooltip>
          )
        }
      />
      {isLoading ? (
        <p className="text-sm text-muted-foreground" data-testid="text-loading-master">
          Loading master account...
        </p>
      ) : master ? (
        <MasterAccountCard master={master} />
      ) : (
        <EmptyState
          icon={Crown}
          testId="empty-master"
          title="No Master Account"
          description="Add a master account to start copying trades to your slave accounts."
          action={
            <PermissionTooltip reason={manage.reason}>
              <Button onClick={() => setOpen(true)} disabled={!manage.allowed} data-testid="button-add-master-empty">
                <Plus />
                Add Master Account
              </Button>
            </PermissionTooltip>
          }
        />
      )}
      <AccountFormDialog
        open={open}
        onOpenChange={setOpen}
        testId="dialog-master-account"
        title="Add Master Account"
        description="Register the MT5 terminal whose trades will be copied."
        initialValues={emptyAccountForm("MASTER", "MT5")}
        platforms={["MT5", "MT4"]}
        markRequired
        brokerPlaceholder="e.g., IC Markets, Pepperstone, FTMO"
        note="Login, server, balance and currency are filled in automatically once the Master EA is installed and activated on your MT5 terminal."
        submitLabel="Add Master Account"
        pendingLabel="Adding..."
        pending={add.isPending}
        onSubmit={(values) => add.mutate(values, { onSuccess: () => setOpen(false) })}
      />
    </div>
  );
}

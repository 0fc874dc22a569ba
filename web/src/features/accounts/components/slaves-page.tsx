import type { Account } from "#contract";
import { Plus, Users } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useSlaveAccounts } from "@/lib/account-queries";
import { useNow } from "@/lib/use-now";
import { useAddSlaveAccount, useDeleteSlaveAccount, useEditSlaveAccount, useToggleSlaveStatus } from "../api/slave-mutations";
import { useAccountLiveSync } from "../api/use-account-live-sync";
import { AccountFormDialog, emptyAccountForm } from "./account-form-dialog";
import { SlaveAccountCard } from "./slave-account-card";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

const SLAVE_PLATFORMS = ["MT4", "MT5"] as const;
const BROKER_PLACEHOLDER = "e.g., IC Markets, Pepperstone, XM";

/** §2 /slaves: list of slave accounts with add, edit, enable/disable and delete. */
export function SlaveAccountsPage() {
  useAccountLiveSync();
  const now = useNow(1000);
  const { slaves, isLoading } = useSlaveAccounts();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Account | null>(null);
  const add = useAddSlaveAccount();
  const edit = useEditSlaveAccount();
  const toggle = useToggleSlaveStatus();
  const remove = useDeleteSlaveAccount();
  const manage = usePermission("accounts.manage");

  return (
    <div className="flex flex-col gap-6" data-testid="page-slave-accounts">
      <PageHeader
        title="Slave Accounts"
        description="Manage and monitor your MT4 slave accounts"
        actions={
          <PermissionTooltip reason={manage.reason}>
            <Button onClick={() => setAdding(true)} disabled={!manage.allowed} data-testid="button-add-slave">
              <Plus />
              Add Slave Account
            </Button>
          </PermissionTooltip>
        }
      />
      {isLoading ? (
        <p className="text-sm text-muted-foreground">Loading slave accounts...</p>
      ) : slaves.length === 0 ? (
        <EmptyState icon={Users} title="No slave accounts configured" testId="empty-slaves" />
      ) : (
        <div className="flex flex-col gap-4">
          {slaves.map((account, index) => (
            <SlaveAccountCard
              key={account.id}
              account={account}
              index={index}
              now={now}
              onEdit={setEditing}
              onToggleStatus={(a) => toggle.mutate(a)}
              onDelete={(a) => remove.mutate(a.id)}
              toggling={toggle.isPending && toggle.variables.id === account.id}
            />
          ))}
        </div>
      )}
      <AccountFormDialog
        open={adding}
        onOpenChange={setAdding}
        testId="dialog-add-slave"
        title="Add Slave Account"
        description="Register an MT4 terminal that will copy the master's trades."
        initialValues={emptyAccountForm("SLAVE", "MT4")}
        platforms={SLAVE_PLATFORMS}
        brokerPlaceholder={BROKER_PLACEHOLDER}
        submitLabel="Add Account"
        pendingLabel="Adding..."
        pending={add.isPending}
        onSubmit={(values) => add.mutate(values, { onSuccess: () => setAdding(false) })}
      />
      <AccountFormDialog
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        testId="dialog-edit-slave"
        title="Edit Slave Account"
        initialValues={
          editing
            ? { accountNumber: editing.accountNumber, alias: editing.alias ?? "", broker: editing.broker, platform: editing.platform, role: "SLAVE" }
            : emptyAccountForm("SLAVE", "MT4")
        }
        platforms={SLAVE_PLATFORMS}
        brokerPlaceholder={BROKER_PLACEHOLDER}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
        pending={edit.isPending}
        onSubmit={(values) => {
          if (editing) edit.mutate({ id: editing.id, values }, { onSuccess: () => setEditing(null) });
        }}
      />
    </div>
  );
}

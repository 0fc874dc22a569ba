import type { SymbolMap } from "#contract";
import { AlertTriangle, ArrowLeftRight, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { ALL_TAB, SlaveTabs, slaveTabLabel, useSlaveTab } from "@/components/slave-tabs";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useSlaveAccounts } from "@/lib/account-queries";
import { useCreateSymbolMap, useDeleteSymbolMap, useUpdateSymbolMap } from "../api/symbol-map-mutations";
import { useSymbolMaps } from "../api/symbol-maps";
import { useSymbolSpecs } from "../api/symbol-specs";
import { emptyMappingForm, mappingToForm } from "../lib/mapping-form";
import { MappingFormDialog } from "./mapping-form-dialog";
import { MappingTable } from "./mapping-table";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2 /mappings Symbol Mapping: 'Add Mapping' dialog, tabs like Live Trades (All plus the first 5
 * slaves), and the mapping table with Edit and Delete (§5, §8).
 */
export function MappingsPage() {
  const { slaves, isLoading: slavesLoading } = useSlaveAccounts();
  const { mappings, isLoading, error, refetch } = useSymbolMaps();
  const tab = useSlaveTab(slaves);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<SymbolMap | null>(null);
  const create = useCreateSymbolMap();
  const update = useUpdateSymbolMap();
  const remove = useDeleteSymbolMap();
  const operate = usePermission("copy.operate");

  const accountLabels = useMemo(
    () => new Map(slaves.map((s) => [s.id, s.alias ? `${slaveTabLabel(s)} (#${s.accountNumber})` : slaveTabLabel(s)])),
    [slaves],
  );
  const showAll = tab.value === ALL_TAB;
  const shown = showAll ? mappings : mappings.filter((m) => m.slaveAccountId === tab.value);
  const specAccounts = useMemo(() => [...new Set(shown.map((m) => m.slaveAccountId))].sort(), [shown]);
  const specs = useSymbolSpecs(specAccounts);

  let body;
  if (error) {
    body = (
      <EmptyState
        icon={AlertTriangle}
        title="Failed to load symbol mappings."
        description={error.message}
        testId="error-mappings"
        action={
          <Button variant="outline" onClick={() => void refetch()}>
            Try again
          </Button>
        }
      />
    );
  } else if (isLoading || slavesLoading) {
    body = (
      <div className="flex items-center justify-center gap-3 py-16 text-sm text-muted-foreground" data-testid="loading-mappings">
        <Spinner /> Loading symbol mappings...
      </div>
    );
  } else {
    body = (
      <SlaveTabs slaves={slaves} value={tab.value} onValueChange={tab.onValueChange}>
        {shown.length === 0 ? (
          <EmptyState
            icon={ArrowLeftRight}
            title={showAll ? "No symbol mappings configured" : "No symbol mappings configured for this account"}
            testId="empty-mappings"
          />
        ) : (
          <MappingTable
            mappings={shown}
            showAccount={showAll}
            accountLabels={accountLabels}
            onEdit={setEditing}
            onDelete={(mapping) => remove.mutate(mapping.id)}
            deletingId={remove.isPending ? remove.variables : undefined}
            specs={specs}
          />
        )}
      </SlaveTabs>
    );
  }

  return (
    <div className="flex flex-col gap-6" data-testid="page-symbol-mapping">
      <PageHeader
        title="Symbol Mapping"
        description="Configure symbol translations between MT5 and MT4"
        actions={
          <PermissionTooltip reason={operate.reason}>
            <Button onClick={() => setAdding(true)} disabled={!operate.allowed} data-testid="button-add-mapping">
              <Plus />
              Add Mapping
            </Button>
          </PermissionTooltip>
        }
      />
      {body}
      <MappingFormDialog
        open={adding}
        onOpenChange={setAdding}
        mode="create"
        initialValues={emptyMappingForm(showAll ? "" : tab.value)}
        slaves={slaves}
        pending={create.isPending}
        onSubmit={async (values) => {
          await create.mutateAsync(values);
          setAdding(false);
        }}
      />
      <MappingFormDialog
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        mode="edit"
        initialValues={editing ? mappingToForm(editing) : emptyMappingForm()}
        slaves={slaves}
        pending={update.isPending}
        onSubmit={async (values) => {
          if (!editing) return;
          await update.mutateAsync({ id: editing.id, changes: values });
          setEditing(null);
        }}
      />
    </div>
  );
}

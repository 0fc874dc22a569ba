import type { SymbolMap } from "#contract";
import { Pencil, Trash } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/** §4 mapping state: Active or Disabled. */
export function MappingStatusBadge({ mapping }: { mapping: SymbolMap }) {
  return (
    <Badge variant={mapping.enabled ? "success" : "muted"} data-testid={`status-mapping-${mapping.id}`} data-enabled={mapping.enabled}>
      {mapping.enabled ? "Active" : "Disabled"}
    </Badge>
  );
}

/** Edit and Delete of one mapping; Delete asks the §5 question first. */
export function MappingActions({
  mapping,
  onEdit,
  onDelete,
  deleting,
}: {
  mapping: SymbolMap;
  onEdit: (mapping: SymbolMap) => void;
  onDelete: (mapping: SymbolMap) => void;
  deleting: boolean;
}) {
  const operate = usePermission("copy.operate");
  return (
    <div className="flex justify-end gap-1">
      <PermissionTooltip reason={operate.reason}>
        <Button variant="ghost" size="sm" onClick={() => onEdit(mapping)} disabled={!operate.allowed} data-testid={`button-edit-mapping-${mapping.id}`}>
          <Pencil />
          Edit
        </Button>
      </PermissionTooltip>
      <PermissionTooltip reason={operate.reason}>
        <ConfirmDialog
          title="Delete Mapping"
          description="Are you sure you want to delete this symbol mapping?"
          confirmLabel="Delete"
          destructive
          onConfirm={() => onDelete(mapping)}
          trigger={
            <Button
              variant="ghost"
              size="sm"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              disabled={deleting || !operate.allowed}
              data-testid={`button-delete-mapping-${mapping.id}`}
            >
              <Trash />
              Delete
            </Button>
          }
        />
      </PermissionTooltip>
    </div>
  );
}

import type { AlertConfig } from "#contract";
import { LoaderCircle, Pencil, Send, Trash } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { cn } from "@/lib/utils";
import { alertRuleText, alertStatusLabel, configuredChannels } from "../lib/alert-summary";
import { ALERT_CHANNEL_LABELS, ALERT_TYPE_LABELS } from "../lib/alert-types";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

export interface AlertRowProps {
  config: AlertConfig;
  editing: boolean;
  testing: boolean;
  toggling: boolean;
  deleting: boolean;
  onTest: () => void;
  onEdit: () => void;
  onToggle: (enabled: boolean) => void;
  onDelete: () => void;
}

/**
 * §2 /alerts row: name, type, rule, channels and rate limit; the test and edit buttons and the
 * enabled switch (enabled shows as 'Active'); delete with confirmation beyond the spec.
 */
export function AlertRow({ config, editing, testing, toggling, deleting, onTest, onEdit, onToggle, onDelete }: AlertRowProps) {
  const rule = alertRuleText(config);
  const channels = configuredChannels(config);
  const status = alertStatusLabel(config.enabled);
  const manage = usePermission("alerts.manage");
  return (
    <li className={cn("flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between", editing && "bg-accent/40")} data-testid={`row-alert-${config.id}`}>
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all" data-testid={`text-alert-name-${config.id}`}>
            {config.name}
          </span>
          <Badge variant="info">{ALERT_TYPE_LABELS[config.type]}</Badge>
        </div>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
          {rule ? <span>{rule}</span> : null}
          <span>Rate limit: {config.rateLimit}s</span>
          <span className="flex flex-wrap items-center gap-1">
            {channels.length === 0 ? (
              <span className="text-warning">No channels</span>
            ) : (
              channels.map((channel) => (
                <Badge key={channel} variant="muted">
                  {ALERT_CHANNEL_LABELS[channel]}
                </Badge>
              ))
            )}
          </span>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2 md:flex-nowrap">
        <div className="mr-auto flex items-center gap-2 md:mr-2">
          <PermissionTooltip reason={manage.reason}>
            <Switch
              checked={config.enabled}
              onCheckedChange={onToggle}
              disabled={toggling || !manage.allowed}
              aria-label={`${config.enabled ? "Disable" : "Enable"} ${config.name}`}
              data-testid={`switch-alert-enabled-${config.id}`}
            />
          </PermissionTooltip>
          <span className={cn("w-14 text-sm", config.enabled ? "text-success" : "text-muted-foreground")} data-testid={`status-alert-${config.id}`}>
            {status}
          </span>
        </div>
        <PermissionTooltip reason={manage.reason}>
          <Button variant="outline" size="sm" onClick={onTest} disabled={testing || !manage.allowed} aria-label={`Test ${config.name}`} data-testid={`button-test-alert-${config.id}`}>
            {testing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send />}
            Test
          </Button>
        </PermissionTooltip>
        <PermissionTooltip reason={manage.reason}>
          <Button variant="outline" size="sm" onClick={onEdit} disabled={!manage.allowed} aria-label={`Edit ${config.name}`} data-testid={`button-edit-alert-${config.id}`}>
            <Pencil />
            Edit
          </Button>
        </PermissionTooltip>
        <PermissionTooltip reason={manage.reason}>
          <ConfirmDialog
            title="Delete Alert"
            description={`Are you sure you want to delete the alert configuration "${config.name}"?`}
            confirmLabel="Delete"
            destructive
            onConfirm={onDelete}
            trigger={
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                disabled={deleting || !manage.allowed}
                aria-label={`Delete ${config.name}`}
                data-testid={`button-delete-alert-${config.id}`}
              >
                <Trash />
              </Button>
            }
          />
        </PermissionTooltip>
      </div>
    </li>
  );
}

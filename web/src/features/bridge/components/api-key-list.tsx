import { type ApiKey, UNBOUND_SLAVE_KEY_REACH } from "#contract";
import { KeyRound, Trash } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { formatDate } from "@/lib/format";
import { useApiKeys, useDeleteApiKey, useSetApiKeyEnabled } from "../api/api-keys";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/** Date and time of a last use, or 'Never'. */
function lastUsed(iso: string | null): string {
  if (!iso) return "Never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "Never" : date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

/** "Alias · 7001" (or the number alone) of the account a key is bound to; null when unbound. */
export function boundAccountLabel(key: Pick<ApiKey, "account">): string | null {
  if (!key.account) return null;
  const { alias, accountNumber } = key.account;
  return alias ? `${alias} · ${accountNumber}` : accountNumber;
}

/**
 * Who stops when the key is disabled or deleted (issue 13): "The SLAVE EA of Alpha (7001)" for a
 * bound key, "Every terminal using this key" otherwise.
 */
export function keyStopTarget(key: Pick<ApiKey, "scope" | "account">): string {
  if (!key.account) return "Every terminal using this key";
  const { alias, accountNumber, role } = key.account;
  return `The ${role} EA of ${alias ? `${alias} (${accountNumber})` : accountNumber}`;
}

/** The disable confirmation: names the key and the terminal that stops until it is enabled again. */
export function disableKeyQuestion(key: Pick<ApiKey, "name" | "scope" | "account">): string {
  return `Disable ${key.name}? ${keyStopTarget(key)} stops until the key is enabled again.`;
}

/** §8 delete question, word for word. */
export function deleteKeyQuestion(name: string): string {
  return `Are you sure you want to delete the API key "${name}"? This action cannot be undone and will immediately revoke access for any terminals using this key.`;
}

/** What deleting the key stops, after the §8 question. */
export function deleteKeyConsequence(key: Pick<ApiKey, "scope" | "account">): string {
  return `${keyStopTarget(key)} stops for good; this cannot be undone.`;
}

/**
 * §2 /bridge key list: name, scope badge, Enabled/Disabled badge, 'Last used' date or 'Never',
 * created date, an enable switch (beyond the spec) and delete with the §8 confirmation. Issue 11:
 * the account each key is bound to (alias · number), and 'Unbound' on MASTER/SLAVE keys bound to none.
 * Issue 13: disabling and deleting ask first, naming the terminal that will stop; enabling does not.
 */
export function ApiKeyList() {
  const { keys, isLoading } = useApiKeys();
  const remove = useDeleteApiKey();
  const setEnabled = useSetApiKeyEnabled();
  const manage = usePermission("keys.manage");
  // The key whose Disable awaits confirmation (null: no question open).
  const [toDisable, setToDisable] = useState<ApiKey | null>(null);

  if (isLoading) return <p className="text-sm text-muted-foreground">Loading API keys...</p>;
  if (keys.length === 0) return <EmptyState icon={KeyRound} title="No API keys created yet" testId="empty-keys" />;

  return (
    <>
      <ConfirmDialog
        open={toDisable !== null}
        onOpenChange={(open) => {
          if (!open) setToDisable(null);
        }}
        title="Disable API Key"
        description={toDisable ? disableKeyQuestion(toDisable) : ""}
        confirmLabel="Disable"
        destructive
        testId="dialog-confirm-key-disable"
        onConfirm={() => {
          if (toDisable) setEnabled.mutate({ key: toDisable, enabled: false });
          setToDisable(null);
        }}
      />
      <ul className="flex flex-col divide-y rounded-lg border" aria-label="API keys">
        {keys.map((key: ApiKey) => {
          const bound = boundAccountLabel(key);
          // MASTER and SLAVE keys act for accounts; an unbound one acts for any account of its scope.
          const unbound = !key.accountId && key.scope !== "DASHBOARD";
          const toggling = setEnabled.isPending && setEnabled.variables.key.id === key.id;
          const deleting = remove.isPending && remove.variables.id === key.id;
          return (
            <li key={key.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid={`key-${key.id}`}>
              <div className="flex min-w-0 flex-col gap-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-all">{key.name}</span>
                  <Badge variant="info">{key.scope}</Badge>
                  <Badge variant={key.enabled ? "success" : "muted"} data-testid={`badge-key-status-${key.id}`}>
                    {key.enabled ? "Enabled" : "Disabled"}
                  </Badge>
                  {unbound ? (
                    <Badge
                      variant="warning"
                      title={key.scope === "SLAVE" ? `${UNBOUND_SLAVE_KEY_REACH}.` : "Acts for the master account, whichever it is."}
                      data-testid={`badge-key-unbound-${key.id}`}
                    >
                      Unbound
                    </Badge>
                  ) : null}
                </div>
                <code className="font-mono text-xs break-all text-muted-foreground">{key.apiKey}</code>
                <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span data-testid={`text-key-last-used-${key.id}`}>Last used: {lastUsed(key.lastUsedAt)}</span>
                  <span>Created: {formatDate(key.createdAt)}</span>
                  {bound ? <span data-testid={`text-key-account-${key.id}`}>Account: {bound}</span> : null}
                </p>
              </div>
              <div className="flex items-center gap-3 self-end sm:self-auto">
                {/* Busy is aria-disabled, not disabled: a disabled switch drops keyboard focus to <body> (WCAG 2.4.3). */}
                <PermissionTooltip reason={manage.reason}>
                  <Switch
                    checked={key.enabled}
                    disabled={!manage.allowed}
                    onCheckedChange={(enabled) => {
                      if (toggling) return;
                      if (enabled) setEnabled.mutate({ key, enabled });
                      else setToDisable(key);
                    }}
                    aria-disabled={toggling || undefined}
                    aria-label={`${key.enabled ? "Disable" : "Enable"} ${key.name}`}
                    data-testid={`switch-key-${key.id}`}
                  />
                </PermissionTooltip>
                <PermissionTooltip reason={manage.reason}>
                  <ConfirmDialog
                    title="Delete API Key"
                    description={
                      <>
                        <span className="block">{deleteKeyQuestion(key.name)}</span>
                        <span className="mt-2 block" data-testid="text-key-delete-consequence">
                          {deleteKeyConsequence(key)}
                        </span>
                      </>
                    }
                    testId="dialog-confirm-key-delete"
                    confirmLabel="Delete"
                    destructive
                    onConfirm={() => remove.mutate(key)}
                    trigger={
                      <Button variant="ghost" size="icon" className="text-destructive hover:bg-destructive/10 hover:text-destructive" disabled={deleting || !manage.allowed} aria-label={`Delete ${key.name}`} data-testid={`button-delete-key-${key.id}`}>
                        <Trash />
                      </Button>
                    }
                  />
                </PermissionTooltip>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

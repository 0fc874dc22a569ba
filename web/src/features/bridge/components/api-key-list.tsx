import type { Account, ApiKey } from "#contract";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Trash } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { accountsQuery } from "@/lib/account-queries";
import { formatDate } from "@/lib/format";
import { useApiKeys, useDeleteApiKey, useSetApiKeyEnabled } from "../api/api-keys";

/** Date and time of a last use, or 'Never'. */
function lastUsed(iso: string | null): string {
  if (!iso) return "Never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "Never" : date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

function accountLabel(accounts: readonly Account[], id: string | null): string | null {
  if (!id) return null;
  const account = accounts.find((a) => a.id === id);
  return account ? account.alias || account.accountNumber : id.slice(-8);
}

/**
 * §2 /bridge key list: name, scope badge, Enabled/Disabled badge, 'Last used' date or 'Never',
 * created date, an enable switch (beyond the spec) and delete with the §8 confirmation.
 */
export function ApiKeyList() {
  const { keys, isLoading } = useApiKeys();
  const { data: accounts = [] } = useQuery(accountsQuery);
  const remove = useDeleteApiKey();
  const setEnabled = useSetApiKeyEnabled();

  if (isLoading) return <p className="text-sm text-muted-foreground">Loading API keys...</p>;
  if (keys.length === 0) return <EmptyState icon={KeyRound} title="No API keys created yet" testId="empty-keys" />;

  return (
    <ul className="flex flex-col divide-y rounded-lg border" aria-label="API keys">
      {keys.map((key: ApiKey) => {
        const bound = accountLabel(accounts, key.accountId);
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
              </div>
              <code className="font-mono text-xs break-all text-muted-foreground">{key.apiKey}</code>
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                <span data-testid={`text-key-last-used-${key.id}`}>Last used: {lastUsed(key.lastUsedAt)}</span>
                <span>Created: {formatDate(key.createdAt)}</span>
                {bound ? <span>Account: {bound}</span> : null}
              </p>
            </div>
            <div className="flex items-center gap-3 self-end sm:self-auto">
              <Switch
                checked={key.enabled}
                onCheckedChange={(enabled) => setEnabled.mutate({ key, enabled })}
                disabled={toggling}
                aria-label={`${key.enabled ? "Disable" : "Enable"} ${key.name}`}
                data-testid={`switch-key-${key.id}`}
              />
              <ConfirmDialog
                title="Delete API Key"
                description={`Are you sure you want to delete the API key "${key.name}"? This action cannot be undone and will immediately revoke access for any terminals using this key.`}
                confirmLabel="Delete"
                destructive
                onConfirm={() => remove.mutate(key)}
                trigger={
                  <Button variant="ghost" size="icon" className="text-destructive hover:bg-destructive/10 hover:text-destructive" disabled={deleting} aria-label={`Delete ${key.name}`} data-testid={`button-delete-key-${key.id}`}>
                    <Trash />
                  </Button>
                }
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

import { type ApiKey, UNBOUND_SLAVE_KEY_REACH } from "#contract";
import { KeyRound, Trash } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Switch } from "@/components/ui/switch";
import { formatDate } from "@/lib/format";
import { useApiKeys, useDeleteApiKey, useSetApiKeyEnabled } from "../api/api-keys";

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
 * §2 /bridge key list: name, scope badge, Enabled/Disabled badge, 'Last used' date or 'Never',
 * created date, an enable switch (beyond the spec) and delete with the §8 confirmation. Issue 11:
 * the account each key is bound to (alias · number), and 'Unbound' on MASTER/SLAVE keys bound to none.
 */
export function ApiKeyList() {
  const { keys, isLoading } = useApiKeys();
  const remove = useDeleteApiKey();
  const setEnabled = useSetApiKeyEnabled();

  if (isLoading) return <p className="text-sm text-muted-foreground">Loading API keys...</p>;
  if (keys.length === 0) return <EmptyState icon={KeyRound} title="No API keys created yet" testId="empty-keys" />;

  return (
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

import { type Account, type ApiKeyScope, type CreateApiKeyRequest, type CreateApiKeyResponse, createApiKeyRequestSchema, UNBOUND_SLAVE_KEY_REACH } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { accountsQuery } from "@/lib/account-queries";
import { useCreateApiKey } from "../api/api-keys";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/** §2 scope choices, MASTER first (the default). */
export const SCOPE_LABELS: Record<ApiKeyScope, string> = {
  MASTER: "Master Terminal",
  SLAVE: "Slave Terminal",
  DASHBOARD: "Dashboard Access",
};

/** Radix Select needs a non-empty value for 'None'; it is sent as "". */
const NO_ACCOUNT = "none";
/** §4: after a creation the form returns to name empty, scope MASTER, account empty. */
const EMPTY_FORM: CreateApiKeyRequest = { name: "", scope: "MASTER", accountId: "" };

/** The question before creating a SLAVE key without an Account ID (issue 11). */
export const UNBOUND_SLAVE_KEY_QUESTION = `${UNBOUND_SLAVE_KEY_REACH}. Create it without an Account ID anyway?`;

/** The accounts a key of `scope` can be bound to: the master for MASTER, the slaves for SLAVE. */
export function accountsForScope(accounts: readonly Account[], scope: ApiKeyScope): Account[] {
  if (scope === "MASTER") return accounts.filter((a) => a.role === "MASTER");
  if (scope === "SLAVE") return accounts.filter((a) => a.role === "SLAVE");
  return [...accounts];
}

/** What an empty Account ID means for `scope`, shown under the field. */
function unboundHint(scope: ApiKeyScope, hasMaster: boolean) {
  if (scope === "SLAVE") {
    return (
      <span className="flex items-start gap-1.5 text-warning" data-testid="text-unbound-warning">
        <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        {UNBOUND_SLAVE_KEY_REACH}.
      </span>
    );
  }
  if (scope === "MASTER" && hasMaster) return <span data-testid="text-auto-bind">Bound to the master account automatically.</span>;
  return null;
}

/**
 * §2 /bridge API key form: Name, Scope (default MASTER), optional Account ID and 'Create Key'
 * (disabled while the name is empty or a creation is pending). `onCreated` receives the
 * one-time credentials. Issue 11: the Account ID offers the master for a MASTER key (bound to it
 * automatically when left empty) and the slaves for a SLAVE key; a SLAVE key left without one
 * says what it can reach and is created only after confirmation (`allowUnbound: true`).
 */
export function ApiKeyForm({ onCreated }: { onCreated: (created: CreateApiKeyResponse) => void }) {
  const create = useCreateApiKey();
  const manage = usePermission("keys.manage");
  const { data: accounts = [] } = useQuery(accountsQuery);
  const [confirmUnbound, setConfirmUnbound] = useState<CreateApiKeyRequest | null>(null);
  const form = useForm<CreateApiKeyRequest>({
    resolver: zodResolver(createApiKeyRequestSchema, undefined, { raw: true }),
    defaultValues: EMPTY_FORM,
  });
  const name = form.watch("name");
  const scope = form.watch("scope") ?? "MASTER";
  const accountId = form.watch("accountId");
  const nameError = form.formState.errors.name?.message;
  const choices = accountsForScope(accounts, scope);

  // An account chosen for another scope does not fit the new one (e.g. the master for a SLAVE key).
  const changeScope = (next: ApiKeyScope, onChange: (value: ApiKeyScope) => void) => {
    onChange(next);
    if (accountId && !accountsForScope(accounts, next).some((a) => a.id === accountId)) form.setValue("accountId", "");
  };

  const send = (body: CreateApiKeyRequest) =>
    create.mutate(body, {
      onSuccess: (created) => {
        form.reset(EMPTY_FORM);
        onCreated(created);
      },
    });

  const onSubmit = (values: CreateApiKeyRequest) => {
    const body: CreateApiKeyRequest = { name: values.name, scope: values.scope, accountId: values.accountId ?? "" };
    // A SLAVE key without an account reaches every slave: only after an explicit yes.
    if (body.scope === "SLAVE" && !body.accountId) setConfirmUnbound(body);
    else send(body);
  };

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4 md:grid-cols-2 xl:grid-cols-[2fr_1.5fr_2fr_auto] xl:items-start">
      <FormField id="key-name" label="Name" error={nameError}>
        <Input id="key-name" placeholder="Master EA 1" autoComplete="off" maxLength={100} data-testid="input-key-name" {...form.register("name")} />
      </FormField>
      <FormField id="key-scope" label="Scope">
        <Controller
          control={form.control}
          name="scope"
          render={({ field }) => (
            <Select value={field.value} onValueChange={(v) => changeScope(v as ApiKeyScope, field.onChange)} name={field.name}>
              <SelectTrigger id="key-scope" ref={field.ref} onBlur={field.onBlur} data-testid="select-key-scope">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(SCOPE_LABELS) as ApiKeyScope[]).map((scope) => (
                  <SelectItem key={scope} value={scope} data-testid={`option-scope-${scope}`}>
                    {SCOPE_LABELS[scope]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      <FormField id="key-account" label="Account ID (Optional)" hint={accountId ? null : unboundHint(scope, choices.length > 0)}>
        <Controller
          control={form.control}
          name="accountId"
          render={({ field }) => (
            <Select value={field.value || NO_ACCOUNT} onValueChange={(v) => field.onChange(v === NO_ACCOUNT ? "" : v)} name={field.name}>
              <SelectTrigger id="key-account" ref={field.ref} onBlur={field.onBlur} data-testid="select-key-account">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={NO_ACCOUNT} data-testid="option-account-none">
                  None
                </SelectItem>
                {choices.map((account) => (
                  <SelectItem key={account.id} value={account.id} data-testid={`option-account-${account.id}`}>
                    {account.alias || account.accountNumber} · {account.role === "MASTER" ? "Master" : "Slave"} {account.accountNumber}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      <div className="flex items-end md:col-span-2 xl:col-span-1 xl:h-full xl:pt-6">
        <PermissionTooltip reason={manage.reason} className="flex w-full rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring xl:w-auto">
          <Button type="submit" className="w-full xl:w-auto" disabled={!name.trim() || create.isPending || !manage.allowed} data-testid="button-create-key">
            <KeyRound />
            {create.isPending ? "Creating..." : "Create Key"}
          </Button>
        </PermissionTooltip>
      </div>
      <ConfirmDialog
        open={confirmUnbound !== null}
        onOpenChange={(open) => {
          if (!open) setConfirmUnbound(null);
        }}
        title="Create an unbound Slave Terminal key?"
        description={UNBOUND_SLAVE_KEY_QUESTION}
        confirmLabel="Create Unbound Key"
        onConfirm={() => {
          if (confirmUnbound) send({ ...confirmUnbound, allowUnbound: true });
          setConfirmUnbound(null);
        }}
      />
    </form>
  );
}

import { type ApiKeyScope, type CreateApiKeyRequest, type CreateApiKeyResponse, createApiKeyRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { Controller, useForm } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { accountsQuery } from "@/lib/account-queries";
import { useCreateApiKey } from "../api/api-keys";

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

/**
 * §2 /bridge API key form: Name, Scope (default MASTER), optional Account ID and 'Create Key'
 * (disabled while the name is empty or a creation is pending). `onCreated` receives the
 * one-time credentials.
 */
export function ApiKeyForm({ onCreated }: { onCreated: (created: CreateApiKeyResponse) => void }) {
  const create = useCreateApiKey();
  const { data: accounts = [] } = useQuery(accountsQuery);
  const form = useForm<CreateApiKeyRequest>({
    resolver: zodResolver(createApiKeyRequestSchema, undefined, { raw: true }),
    defaultValues: EMPTY_FORM,
  });
  const name = form.watch("name");
  const nameError = form.formState.errors.name?.message;

  const onSubmit = (values: CreateApiKeyRequest) =>
    create.mutate(
      { name: values.name, scope: values.scope, accountId: values.accountId ?? "" },
      {
        onSuccess: (created) => {
          form.reset(EMPTY_FORM);
          onCreated(created);
        },
      },
    );

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
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
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
      <FormField id="key-account" label="Account ID (Optional)">
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
                {accounts.map((account) => (
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
        <Button type="submit" className="w-full xl:w-auto" disabled={!name.trim() || create.isPending} data-testid="button-create-key">
          <KeyRound />
          {create.isPending ? "Creating..." : "Create Key"}
        </Button>
      </div>
    </form>
  );
}

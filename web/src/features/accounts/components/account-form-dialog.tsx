import { type AccountRole, type Platform, createAccountRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { AccountFormInput, AccountFormValues } from "../api/account-requests";

const PLATFORM_LABELS: Record<Platform, string> = { MT5: "MetaTrader 5", MT4: "MetaTrader 4" };

/** Empty form for a new account of `role` (§5 defaults: status active). */
export function emptyAccountForm(role: AccountRole, platform: Platform): AccountFormInput {
  return { accountNumber: "", alias: "", broker: "", platform, role, status: "active" };
}

export interface AccountFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  /** Values the form starts from each time it opens. */
  initialValues: AccountFormInput;
  /** Platform options in display order (§2: MT5 first for masters, MT4 first for slaves). */
  platforms: readonly Platform[];
  /** Adds ' *' to the required labels (master dialog, §2). */
  markRequired?: boolean;
  brokerPlaceholder: string;
  note?: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (values: AccountFormValues) => void;
  testId: string;
}

/**
 * §5 account form in a dialog: account number, alias, broker and platform, validated by the
 * contract's createAccountRequestSchema; role and status travel with the form, not editable.
 * The form is mounted only while open, so every opening starts from `initialValues`.
 */
export function AccountFormDialog(props: AccountFormDialogProps) {
  const { open, onOpenChange, title, description, testId } = props;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : <DialogDescription className="sr-only">{title}</DialogDescription>}
        </DialogHeader>
        <AccountForm {...props} />
      </DialogContent>
    </Dialog>
  );
}

function AccountForm({
  initialValues,
  platforms,
  markRequired = false,
  brokerPlaceholder,
  note,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
}: AccountFormDialogProps) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<AccountFormInput, unknown, AccountFormValues>({
    resolver: zodResolver(createAccountRequestSchema),
    defaultValues: initialValues,
  });
  const required = markRequired ? " *" : "";
  const invalid = (field: "accountNumber" | "broker") =>
    errors[field] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(field) } : {};

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
      <FormField id="accountNumber" label={`Account Number${required}`} error={errors.accountNumber?.message}>
        <Input
          id="accountNumber"
          inputMode="numeric"
          autoComplete="off"
          placeholder="e.g., 12345678"
          data-testid="input-account-number"
          {...invalid("accountNumber")}
          {...register("accountNumber")}
        />
      </FormField>
      <FormField id="alias" label="Alias (Optional)" error={errors.alias?.message}>
        <Input id="alias" autoComplete="off" placeholder="e.g., Main Account" data-testid="input-alias" {...register("alias")} />
      </FormField>
      <FormField id="broker" label={`Broker${required}`} error={errors.broker?.message}>
        <Input
          id="broker"
          autoComplete="off"
          placeholder={brokerPlaceholder}
          data-testid="input-broker"
          {...invalid("broker")}
          {...register("broker")}
        />
      </FormField>
      <FormField id="platform" label="Platform" error={errors.platform?.message}>
        <Controller
          control={control}
          name="platform"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name}>
              <SelectTrigger id="platform" ref={field.ref} onBlur={field.onBlur} data-testid="select-platform">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {platforms.map((p) => (
                  <SelectItem key={p} value={p} data-testid={`option-platform-${p}`}>
                    {PLATFORM_LABELS[p]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      {note ? <div className="rounded-md border bg-muted/50 p-3 text-xs text-muted-foreground">{note}</div> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" data-testid="button-cancel-account">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending} data-testid="button-submit-account">
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

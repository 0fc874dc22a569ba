import type { Account } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { slaveTabLabel } from "@/components/slave-tabs";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { errorMessageFrom, fieldIssuesFrom } from "@/lib/api-client";
import { type MappingFormInput, type MappingFormValues, mappingFormSchema, stepLotMultiplier } from "../lib/mapping-form";

type FieldName = keyof MappingFormInput;
const FIELDS: readonly FieldName[] = ["masterSymbol", "slaveSymbol", "slaveAccountId", "lotMultiplier", "enabled"];

export interface MappingFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: "create" | "edit";
  /** Values the form starts from each time it opens. */
  initialValues: MappingFormInput;
  slaves: readonly Account[];
  pending: boolean;
  /** Resolves when saved; rejects with the apiRequest error (shown in the dialog). */
  onSubmit: (values: MappingFormValues) => Promise<void>;
}

const TEXT = {
  create: {
    title: "Add Mapping",
    description: "Translate a master (MT5) symbol to the symbol a slave (MT4) account trades.",
    submit: "Add Mapping",
    pending: "Adding...",
    failure: "Failed to create symbol mapping.",
  },
  edit: {
    title: "Edit Mapping",
    description: "Change the symbols, lot multiplier or state of this mapping.",
    submit: "Save Changes",
    pending: "Saving...",
    failure: "Failed to update symbol mapping.",
  },
} as const;

/**
 * §5 symbol mapping form in a dialog (create, or edit beyond the spec with an enabled switch).
 * The form is mounted only while open, so every opening starts from `initialValues`.
 */
export function MappingFormDialog(props: MappingFormDialogProps) {
  const { open, onOpenChange, mode } = props;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid={`dialog-${mode}-mapping`}>
        <DialogHeader>
          <DialogTitle>{TEXT[mode].title}</DialogTitle>
          <DialogDescription>{TEXT[mode].description}</DialogDescription>
        </DialogHeader>
        <MappingForm {...props} />
      </DialogContent>
    </Dialog>
  );
}

function MappingForm({ mode, initialValues, slaves, pending, onSubmit }: MappingFormDialogProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<MappingFormInput, unknown, MappingFormValues>({
    resolver: zodResolver(mappingFormSchema),
    defaultValues: initialValues,
  });
  const invalid = (field: FieldName) => (errors[field] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(field) } : {});

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      const issues = fieldIssuesFrom(error).filter((issue): issue is { path: FieldName; message: string } =>
        (FIELDS as readonly string[]).includes(issue.path),
      );
      for (const issue of issues) setError(issue.path, { message: issue.message });
      if (issues.length === 0) setServerError(errorMessageFrom(error, TEXT[mode].failure));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="masterSymbol" label="Master Symbol (MT5)" error={errors.masterSymbol?.message}>
          <Input
            id="masterSymbol"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g., EURUSD"
            data-testid="input-master-symbol"
            {...invalid("masterSymbol")}
            {...register("masterSymbol")}
          />
        </FormField>
        <FormField id="slaveSymbol" label="Slave Symbol (MT4)" error={errors.slaveSymbol?.message}>
          <Input
            id="slaveSymbol"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g., EURUSD.a"
            data-testid="input-slave-symbol"
            {...invalid("slaveSymbol")}
            {...register("slaveSymbol")}
          />
        </FormField>
      </div>
      <FormField id="slaveAccountId" label="Slave Account" error={errors.slaveAccountId?.message}>
        <Controller
          control={control}
          name="slaveAccountId"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} name={field.name} disabled={slaves.length === 0}>
              <SelectTrigger
                id="slaveAccountId"
                ref={field.ref}
                onBlur={field.onBlur}
                data-testid="select-slave-account"
                {...invalid("slaveAccountId")}
              >
                <SelectValue placeholder={slaves.length === 0 ? "No slave accounts configured" : "Select slave account"} />
              </SelectTrigger>
              <SelectContent>
                {slaves.map((slave) => (
                  <SelectItem key={slave.id} value={slave.id} data-testid={`option-slave-account-${slave.id}`}>
                    {slaveTabLabel(slave)}
                    {slave.alias ? <span className="text-muted-foreground"> · #{slave.accountNumber}</span> : null}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </FormField>
      <FormField
        id="lotMultiplier"
        label="Lot Multiplier"
        error={errors.lotMultiplier?.message}
        hint="Slave volume = master volume × multiplier (e.g., 0.5 copies half the size). Arrow keys step by 0.1."
      >
        <Input
          id="lotMultiplier"
          inputMode="decimal"
          autoComplete="off"
          aria-keyshortcuts="ArrowUp ArrowDown"
          data-testid="input-lot-multiplier"
          onKeyDown={(event) => {
            if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
            event.preventDefault();
            setValue("lotMultiplier", stepLotMultiplier(getValues("lotMultiplier"), event.key === "ArrowUp" ? 1 : -1), { shouldDirty: true });
          }}
          {...invalid("lotMultiplier")}
          {...register("lotMultiplier")}
        />
      </FormField>
      {mode === "edit" ? (
        <Controller
          control={control}
          name="enabled"
          render={({ field }) => (
            <div className="flex items-center justify-between gap-4 rounded-md border p-3">
              <div className="flex flex-col gap-1">
                <label htmlFor="enabled" className="text-sm font-medium">
                  {field.value ? "Active" : "Disabled"}
                </label>
                <p className="text-xs text-muted-foreground">A disabled mapping stops this symbol from being copied to the account.</p>
              </div>
              <Switch
                id="enabled"
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                data-testid="switch-mapping-enabled"
              />
            </div>
          )}
        />
      ) : null}
      {serverError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
          data-testid="error-mapping-form"
        >
          {serverError}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" data-testid="button-cancel-mapping">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending} data-testid="button-submit-mapping">
          {pending ? TEXT[mode].pending : TEXT[mode].submit}
        </Button>
      </DialogFooter>
    </form>
  );
}

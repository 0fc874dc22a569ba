import type { CopySettingsValues } from "#contract";
import type { ComponentProps, ReactNode } from "react";
import { type Control, Controller, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import type { CopySettingsFormValues } from "../api/copy-settings-form";

type Form = CopySettingsFormValues;
type FieldsOf<T> = { [K in keyof Form]: Form[K] extends T ? K : never }[keyof Form];

/** Element id of a Copy Settings control, unique across the slave tabs. */
export const copySettingsId = (name: keyof Form, accountId: string) => `cs-${name}-${accountId}`;

export interface CopySettingsTextFieldProps extends Omit<ComponentProps<"input">, "name"> {
  accountId: string;
  name: FieldsOf<string>;
  label: string;
  hint?: ReactNode;
  /** Id of a hint shown elsewhere (e.g. one hint under a row of fields) that also describes this input. */
  describedBy?: string;
  register: UseFormRegister<Form>;
  errors: FieldErrors<Form>;
  testId: string;
}

/** One labelled text input of the Copy Settings card, with the contract's message under it. */
export function CopySettingsTextField({ accountId, name, label, hint, describedBy, register, errors, testId, ...inputProps }: CopySettingsTextFieldProps) {
  const id = copySettingsId(name, accountId);
  const error = errors[name]?.message;
  const described = [error ? fieldErrorId(id) : null, describedBy ?? null].filter((v) => v !== null).join(" ");
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        autoComplete="off"
        data-testid={testId}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...inputProps}
        {...register(name)}
      />
    </FormField>
  );
}

export interface CopySettingsSelectFieldProps<N extends FieldsOf<string>> {
  accountId: string;
  name: N;
  label: string;
  /** Option value → label, in display order. */
  options: Record<Form[N] & string, string>;
  control: Control<Form, unknown, CopySettingsValues>;
  errors: FieldErrors<Form>;
  testId: string;
  disabled?: boolean;
  /** One line under the select (e.g. what the chosen option does). */
  hint?: ReactNode;
}

/** A labelled Radix select bound to one enum field; options carry `option-<testId minus "select-">-<value>`. */
export function CopySettingsSelectField<N extends "sizingMode" | "tooSmall" | "allowedSides" | "autoSync">({
  accountId,
  name,
  label,
  options,
  control,
  errors,
  testId,
  disabled,
  hint,
}: CopySettingsSelectFieldProps<N>) {
  const id = copySettingsId(name, accountId);
  const error = errors[name]?.message;
  const optionPrefix = `option-${testId.replace(/^select-/, "")}`;
  const hintId = `${id}-hint`;
  const described = [error ? fieldErrorId(id) : null, hint ? hintId : null].filter((v) => v !== null).join(" ");
  return (
    <FormField id={id} label={label} error={error} hint={hint ? <span id={hintId}>{hint}</span> : undefined}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
            <SelectTrigger
              id={id}
              ref={field.ref}
              onBlur={field.onBlur}
              data-testid={testId}
              aria-invalid={error ? true : undefined}
              aria-describedby={described || undefined}
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {Object.entries<string>(options).map(([value, text]) => (
                <SelectItem key={value} value={value} data-testid={`${optionPrefix}-${value}`}>
                  {text}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}

export interface CopySettingsSwitchFieldProps {
  accountId: string;
  name: FieldsOf<boolean>;
  label: string;
  /** One line under the label saying what the switch does. */
  description?: string;
  control: Control<Form, unknown, CopySettingsValues>;
  testId: string;
  disabled?: boolean;
}

/** A switch with its label (bound through htmlFor) and an optional one-line explanation. */
export function CopySettingsSwitchField({ accountId, name, label, description, control, testId, disabled }: CopySettingsSwitchFieldProps) {
  const id = copySettingsId(name, accountId);
  const descriptionId = `${id}-description`;
  return (
    <div className="flex items-start gap-3">
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            ref={field.ref}
            checked={field.value}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            disabled={disabled}
            aria-describedby={description ? descriptionId : undefined}
            data-testid={testId}
            className="mt-0.5"
          />
        )}
      />
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        {description ? (
          <p id={descriptionId} className="text-xs text-muted-foreground">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

import type { ComponentProps, ReactNode } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import type { RiskFormValues } from "../api/risk-form";

type TextFieldName = {
  [K in keyof RiskFormValues]: RiskFormValues[K] extends string ? K : never;
}[keyof RiskFormValues];

export interface RiskFieldProps extends Omit<ComponentProps<"input">, "name"> {
  /** Account id: keeps element ids unique across tabs. */
  accountId: string;
  name: TextFieldName;
  label: string;
  hint?: ReactNode;
  register: UseFormRegister<RiskFormValues>;
  errors: FieldErrors<RiskFormValues>;
  testId: string;
}

/** One labelled input of a risk card, with its §5 validation message under it. */
export function RiskField({ accountId, name, label, hint, register, errors, testId, ...inputProps }: RiskFieldProps) {
  const id = `${name}-${accountId}`;
  const error = errors[name]?.message;
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        autoComplete="off"
        data-testid={testId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
        {...inputProps}
        {...register(name)}
      />
    </FormField>
  );
}

/** A titled card holding a group of risk fields (§2: the three cards of a risk tab). */
export function RiskCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

import type { AlertChannel, CreateAlertConfigRequest } from "#contract";
import { LoaderCircle } from "lucide-react";
import { type FormEvent, useState } from "react";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { errorMessageFrom, fieldIssuesFrom } from "@/lib/api-client";
import { type AlertFormErrors, type AlertFormField, type AlertFormValues, canSave, issuesToErrors, setChannel, toAlertRequest } from "../lib/alert-form";
import { ALERT_TYPES, ALERT_TYPE_LABELS, isAlertType, numberFieldFor } from "../lib/alert-types";
import { ChannelFields } from "./channel-fields";

export interface AlertFormPanelProps {
  mode: "create" | "edit";
  initialValues: AlertFormValues;
  pending: boolean;
  /** Resolves when saved; rejects with the apiRequest error (field issues are shown inline). */
  onSubmit: (request: CreateAlertConfigRequest) => Promise<unknown>;
  onCancel: () => void;
  /** Create mode with a Telegram bot token saved in Settings: a blank bot token uses it. */
  savedTelegramToken?: boolean;
}

const TEXT = {
  create: { title: "Create Alert", description: "Choose what to watch and where to send notifications.", submit: "Create Alert", failure: "Failed to create alert configuration" },
  edit: { title: "Edit Alert", description: "Change this alert's rule, channels or rate limit.", submit: "Update Alert", failure: "Failed to update alert configuration" },
} as const;

function invalid(errors: AlertFormErrors, field: AlertFormField, id: string) {
  return errors[field] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(id) } : {};
}

/**
 * §2 /alerts side form (§4: create mode empty, edit mode pre-filled; mount it with a new `key`
 * per mode/config). Save reads 'Create Alert' or 'Update Alert' and stays disabled until name and
 * type are set (§5); the caller closes the form after a successful save or on Cancel.
 */
export function AlertFormPanel({ mode, initialValues, pending, onSubmit, onCancel, savedTelegramToken = false }: AlertFormPanelProps) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<AlertFormErrors>({});
  const numberField = numberFieldFor(values.type);

  const patch = (change: Partial<AlertFormValues>, clear: readonly AlertFormField[]) => {
    setValues((v) => ({ ...v, ...change }));
    setErrors((e) => {
      const next = { ...e };
      for (const field of [...clear, "form" as const]) delete next[field];
      return next;
    });
  };

  const onTypeChange = (type: string) => {
    if (!isAlertType(type)) return;
    // A number typed for another type means something else here (points vs ms vs %).
    patch({ type, threshold: type === values.type ? values.threshold : "" }, ["type", "threshold"]);
  };

  const onToggleChannel = (channel: AlertChannel, on: boolean) => {
    const fields: Record<AlertChannel, AlertFormField[]> = { telegram: ["telegram.chatId", "telegram.botToken"], discord: ["discord.webhookUrl"], email: ["email.recipients"] };
    patch({ channels: setChannel(values.channels, channel, on) }, fields[channel]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave(values) || pending) return;
    const result = toAlertRequest(values, { savedTelegramToken });
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    try {
      await onSubmit(result.request);
    } catch (error) {
      const fieldErrors = issuesToErrors(fieldIssuesFrom(error));
      setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: errorMessageFrom(error, TEXT[mode].failure) });
    }
  };

  return (
    <Card data-testid="form-alert" data-mode={mode}>
      <CardHeader>
        <CardTitle>{TEXT[mode].title}</CardTitle>
        <CardDescription>{TEXT[mode].description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
          <FormField id="alert-name" label="Alert Name" error={errors.name}>
            <Input
              id="alert-name"
              autoComplete="off"
              placeholder="e.g., High slippage on EURUSD"
              value={values.name}
              onChange={(e) => patch({ name: e.target.value }, ["name"])}
              data-testid="input-alert-name"
              {...invalid(errors, "name", "alert-name")}
            />
          </FormField>
          <FormField id="alert-type" label="Alert Type" error={errors.type}>
            <Select value={values.type} onValueChange={onTypeChange}>
              <SelectTrigger id="alert-type" data-testid="select-alert-type" {...invalid(errors, "type", "alert-type")}>
                <SelectValue placeholder="Select alert type" />
              </SelectTrigger>
              <SelectContent>
                {ALERT_TYPES.map((type) => (
                  <SelectItem key={type} value={type} data-testid={`option-alert-type-${type}`}>
                    {ALERT_TYPE_LABELS[type]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          {numberField ? (
            <FormField id="alert-threshold" label={`${numberField.label} (${numberField.unit})`} hint={`Leave blank to use ${numberField.placeholder} ${numberField.unit}`} error={errors.threshold}>
              <Input
                id="alert-threshold"
                type="number"
                min={numberField.min}
                max={numberField.max}
                step={numberField.step}
                inputMode={numberField.integer ? "numeric" : "decimal"}
                placeholder={numberField.placeholder}
                value={values.threshold}
                onChange={(e) => patch({ threshold: e.target.value }, ["threshold"])}
                data-testid={numberField.testId}
                {...invalid(errors, "threshold", "alert-threshold")}
              />
            </FormField>
          ) : null}
          <ChannelFields
            channels={values.channels}
            errors={errors}
            onToggle={onToggleChannel}
            onChange={(channels) => patch({ channels }, ["telegram.chatId", "telegram.botToken", "discord.webhookUrl", "email.recipients"])}
            savedTelegramToken={savedTelegramToken}
          />
          <FormField id="alert-rate-limit" label="Rate Limit (seconds)" hint="Minimum time between notifications" error={errors.rateLimit}>
            <Input
              id="alert-rate-limit"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              placeholder="300"
              value={values.rateLimit}
              onChange={(e) => patch({ rateLimit: e.target.value }, ["rateLimit"])}
              data-testid="input-rate-limit"
              {...invalid(errors, "rateLimit", "alert-rate-limit")}
            />
          </FormField>
          {errors.form ? (
            <p role="alert" className="text-sm text-destructive" data-testid="error-alert-form">
              {errors.form}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onCancel} data-testid="button-cancel-alert">
              Cancel
            </Button>
            <Button type="submit" disabled={!canSave(values) || pending} data-testid="button-save-alert">
              {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
              {TEXT[mode].submit}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

import type { Control, FieldErrors, UseFormRegister } from "react-hook-form";
import { Controller } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { SettingsFormOutput, SettingsFormValues } from "../lib/settings-form";

type Errors = FieldErrors<SettingsFormValues>;
type TextField = "websocketUrl" | "apiTimeout" | "retryAttempts" | "telegramToken" | "alertEmail";

/** aria wiring of a field that has a validation message. */
function invalid(errors: Errors, name: TextField) {
  return errors[name] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(name) } : {};
}

/** §2 API Configuration: WebSocket URL, API Timeout (ms), Retry Attempts. */
export function ApiConfigCard({ register, errors }: { register: UseFormRegister<SettingsFormValues>; errors: Errors }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>API Configuration</CardTitle>
        <CardDescription>Connection settings of this dashboard</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormField id="websocketUrl" label="WebSocket URL" error={errors.websocketUrl?.message}>
          <Input
            id="websocketUrl"
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="wss://your-server/ws"
            data-testid="input-websocket-url"
            {...invalid(errors, "websocketUrl")}
            {...register("websocketUrl")}
          />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="apiTimeout" label="API Timeout (ms)" error={errors.apiTimeout?.message}>
            <Input id="apiTimeout" type="number" min={0} step={1} inputMode="numeric" data-testid="input-api-timeout" {...invalid(errors, "apiTimeout")} {...register("apiTimeout")} />
          </FormField>
          <FormField id="retryAttempts" label="Retry Attempts" error={errors.retryAttempts?.message}>
            <Input id="retryAttempts" type="number" min={0} step={1} inputMode="numeric" data-testid="input-retry-attempts" {...invalid(errors, "retryAttempts")} {...register("retryAttempts")} />
          </FormField>
        </div>
      </CardContent>
    </Card>
  );
}

const CHECKBOXES = [
  { name: "errorAlerts", label: "Error Alerts", testId: "checkbox-error-alerts" },
  { name: "tradeAlerts", label: "Trade Notifications", testId: "checkbox-trade-alerts" },
  { name: "dailyReports", label: "Daily Reports", testId: "checkbox-daily-reports" },
] as const;

/**
 * §2 Notification Settings: Telegram Bot Token (password field), Alert Email, and the Error
 * Alerts, Trade Notifications and Daily Reports checkboxes.
 */
export function NotificationCard({
  register,
  control,
  errors,
}: {
  register: UseFormRegister<SettingsFormValues>;
  control: Control<SettingsFormValues, unknown, SettingsFormOutput>;
  errors: Errors;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Settings</CardTitle>
        <CardDescription>Where and when this browser's notifications go</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormField id="telegramToken" label="Telegram Bot Token" error={errors.telegramToken?.message}>
          <PasswordInput
            id="telegramToken"
            autoComplete="off"
            spellCheck={false}
            placeholder="123456:ABC-DEF..."
            data-testid="input-telegram-token"
            toggleTestId="button-toggle-telegram-token"
            {...invalid(errors, "telegramToken")}
            {...register("telegramToken")}
          />
        </FormField>
        <FormField id="alertEmail" label="Alert Email" error={errors.alertEmail?.message}>
          <Input id="alertEmail" type="email" autoComplete="email" placeholder="alerts@example.com" data-testid="input-alert-email" {...invalid(errors, "alertEmail")} {...register("alertEmail")} />
        </FormField>
        <fieldset className="flex flex-col gap-3 pt-1">
          <legend className="sr-only">Notification types</legend>
          {CHECKBOXES.map(({ name, label, testId }) => (
            <div key={name} className="flex items-center gap-2">
              <Controller
                control={control}
                name={name}
                render={({ field }) => (
                  <Checkbox
                    id={name}
                    ref={field.ref}
                    checked={field.value}
                    onCheckedChange={(checked) => field.onChange(checked === true)}
                    onBlur={field.onBlur}
                    data-testid={testId}
                  />
                )}
              />
              <Label htmlFor={name}>{label}</Label>
            </div>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  );
}

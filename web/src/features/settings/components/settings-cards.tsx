import type { Control, FieldErrors, UseFormRegister } from "react-hook-form";
import { Controller } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { SettingsFormOutput, SettingsFormValues } from "../lib/settings-form";

type Errors = FieldErrors<SettingsFormValues>;
type TextField = "apiTimeout" | "retryAttempts" | "telegramToken" | "telegramChatId" | "alertEmail";

/** aria wiring of a field that has a validation message. */
function invalid(errors: Errors, name: TextField) {
  return errors[name] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(name) } : {};
}

/** The sentence under the read-only WebSocket URL. */
export const WEBSOCKET_URL_HINT = "The address this dashboard's live updates use right now. It follows the address you opened the dashboard at, so it cannot be changed here.";

/**
 * §2 API Configuration: WebSocket URL (read-only: the one this page's realtime client connects
 * to), API Timeout (ms) and Retry Attempts, which the Expert Advisors take from their heartbeat
 * replies (issue 16).
 */
export function ApiConfigCard({ register, errors, websocketUrl }: { register: UseFormRegister<SettingsFormValues>; errors: Errors; websocketUrl: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>API Configuration</CardTitle>
        <CardDescription>Requests of your Expert Advisors to this server: they take these values with their next heartbeat</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormField id="websocketUrl" label="WebSocket URL" hint={WEBSOCKET_URL_HINT}>
          <Input id="websocketUrl" type="url" readOnly value={websocketUrl} spellCheck={false} data-testid="input-websocket-url" />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="apiTimeout" label="API Timeout (ms)" error={errors.apiTimeout?.message}>
            <Input id="apiTimeout" type="number" min={1000} max={60000} step={1} inputMode="numeric" data-testid="input-api-timeout" {...invalid(errors, "apiTimeout")} {...register("apiTimeout")} />
          </FormField>
          <FormField id="retryAttempts" label="Retry Attempts" error={errors.retryAttempts?.message}>
            <Input id="retryAttempts" type="number" min={0} max={10} step={1} inputMode="numeric" data-testid="input-retry-attempts" {...invalid(errors, "retryAttempts")} {...register("retryAttempts")} />
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
 * §2 Notification Settings: Telegram Bot Token (password field; saved on the server, never shown
 * again: blank keeps it, "Remove saved token" clears it), the Telegram Chat ID and Alert Email new
 * alerts start with, and the Error Alerts, Trade Notifications and Daily Reports checkboxes (which
 * alert types a new alert starts enabled: contract/settings.ts ALERT_TYPES_BY_TOGGLE).
 */
export function NotificationCard({
  register,
  control,
  errors,
  tokenSet,
  clearToken,
  onClearToken,
}: {
  register: UseFormRegister<SettingsFormValues>;
  control: Control<SettingsFormValues, unknown, SettingsFormOutput>;
  errors: Errors;
  /** A token is saved on the server (it is never shown). */
  tokenSet: boolean;
  /** The saved token is marked for removal on save. */
  clearToken: boolean;
  onClearToken: (clear: boolean) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Settings</CardTitle>
        <CardDescription>Where new alerts send notifications, and which alert types start enabled</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormField
          id="telegramToken"
          label="Telegram Bot Token"
          error={errors.telegramToken?.message}
          hint={
            tokenSet ? (
              <span className="flex flex-wrap items-center gap-2" data-testid="text-telegram-token-state">
                {clearToken ? "The saved token will be removed when you save." : "A token is saved. Leave blank to keep it."}
                <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => onClearToken(!clearToken)} data-testid="button-clear-telegram-token">
                  {clearToken ? "Keep saved token" : "Remove saved token"}
                </Button>
              </span>
            ) : null
          }
        >
          <PasswordInput
            id="telegramToken"
            autoComplete="off"
            spellCheck={false}
            placeholder={tokenSet ? "•••••••• (saved)" : "123456:ABC-DEF..."}
            data-testid="input-telegram-token"
            toggleTestId="button-toggle-telegram-token"
            {...invalid(errors, "telegramToken")}
            {...register("telegramToken")}
          />
        </FormField>
        <FormField id="telegramChatId" label="Telegram Chat ID" error={errors.telegramChatId?.message}>
          <Input id="telegramChatId" autoComplete="off" spellCheck={false} placeholder="-1001234567890" data-testid="input-default-telegram-chat-id" {...invalid(errors, "telegramChatId")} {...register("telegramChatId")} />
        </FormField>
        <FormField id="alertEmail" label="Alert Email" error={errors.alertEmail?.message}>
          <Input id="alertEmail" type="text" inputMode="email" autoComplete="email" placeholder="alerts@example.com" data-testid="input-alert-email" {...invalid(errors, "alertEmail")} {...register("alertEmail")} />
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

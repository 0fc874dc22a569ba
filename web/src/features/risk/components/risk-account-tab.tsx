import type { Account, RiskLimit } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { type RiskFormOutput, type RiskFormValues, enabledTogglePayload, formFromSaved, riskFormSchema, toEaProfile, toRiskLimitPayload } from "../api/risk-form";
import { useSaveRiskEnabled, useSaveRiskSettings } from "../api/risk-requests";
import { CopySettingsCard } from "./copy-settings-card";
import { RiskSettingsCards } from "./risk-settings-cards";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2 /risk tab of one slave: header (alias or number, broker, currency), 'Override EA Settings'
 * and Enabled/Disabled switches, the three cards and 'Save Risk Settings'. The form (re)loads
 * the saved limit and EA profile (§3 defaults otherwise) without clobbering unsaved edits.
 * §4: with Enabled off every input and Save are disabled; the switch itself saves at once.
 * Below the risk form, the slave's Copy Settings card (issue 12) with its own form and save.
 */
export function RiskAccountTab({ account, limit }: { account: Account; limit: RiskLimit | undefined }) {
  const saved = useMemo(() => formFromSaved(limit, account.settings), [limit, account.settings]);
  const form = useForm<RiskFormValues, unknown, RiskFormOutput>({
    resolver: zodResolver(riskFormSchema),
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const save = useSaveRiskSettings();
  const saveEnabled = useSaveRiskEnabled();
  const operate = usePermission("copy.operate");
  const enabled = form.watch("enabled");
  const disabled = !enabled;

  const onSubmit = (values: RiskFormOutput) =>
    save.mutate(
      { limit: toRiskLimitPayload(account.id, values), profile: toEaProfile(values) },
      // Saved: current values become the baseline so the refetched ones load over them.
      { onSuccess: () => form.reset(form.getValues()) },
    );

  const onEnabledChange = (next: boolean) => {
    const payload = enabledTogglePayload(account.id, saved, next);
    form.setValue("enabled", next);
    saveEnabled.mutate(payload, { onError: () => form.setValue("enabled", !next) });
  };

  const title = account.alias || account.accountNumber;
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid={`form-risk-${account.id}`}>
        <Card>
          <CardHeader className="flex-col gap-4 md:flex-row md:items-center md:justify-between">
            <div className="min-w-0">
              <CardTitle className="truncate text-lg" data-testid="text-risk-account">
                {title}
              </CardTitle>
              <CardDescription>
                {account.broker} • {account.currency || "USD"}
              </CardDescription>
            </div>
            <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
              <Controller
                control={form.control}
                name="overrideLocal"
                render={({ field }) => (
                  <div className="flex items-center gap-2">
                    <PermissionTooltip reason={operate.reason}>
                      <Switch
                        id={`override-${account.id}`}
                        ref={field.ref}
                        checked={field.value}
                        onCheckedChange={field.onChange}
                        disabled={disabled || !operate.allowed}
                        data-testid="switch-override"
                      />
                    </PermissionTooltip>
                    <Label htmlFor={`override-${account.id}`}>Override EA Settings</Label>
                  </div>
                )}
              />
              <div className="flex items-center gap-2">
                <PermissionTooltip reason={operate.reason}>
                  <Switch
                    id={`enabled-${account.id}`}
                    checked={enabled}
                    onCheckedChange={onEnabledChange}
                    disabled={saveEnabled.isPending || !operate.allowed}
                    data-testid="switch-enabled"
                  />
                </PermissionTooltip>
                <Label htmlFor={`enabled-${account.id}`} className={enabled ? "text-success" : "text-muted-foreground"}>
                  {enabled ? "Enabled" : "Disabled"}
                </Label>
              </div>
            </div>
          </CardHeader>
        </Card>
        <RiskSettingsCards accountId={account.id} register={form.register} control={form.control} errors={form.formState.errors} disabled={disabled} />
        <div className="flex justify-end">
          <PermissionTooltip reason={operate.reason}>
            <Button type="submit" disabled={disabled || save.isPending || !operate.allowed} className="w-full sm:w-auto" data-testid="button-save-risk">
              <Save />
              {save.isPending ? "Saving..." : "Save Risk Settings"}
            </Button>
          </PermissionTooltip>
        </div>
      </form>
      <CopySettingsCard accountId={account.id} />
    </div>
  );
}

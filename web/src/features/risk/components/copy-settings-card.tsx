import type { CopySettings, CopySettingsValues } from "#contract";
import { Copy, Save } from "lucide-react";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Separator } from "@/components/ui/separator";
import { Spinner } from "@/components/ui/spinner";
import { fieldIssuesFrom } from "@/lib/api-client";
import {
  ALLOWED_SIDES_LABELS,
  AUTO_SYNC_HELP,
  AUTO_SYNC_LABELS,
  type CopySettingsFormValues,
  SIZING_MODE_LABELS,
  TOO_SMALL_LABELS,
  copySettingsResolver,
  errorsFromIssues,
  formFromSettings,
} from "../api/copy-settings-form";
import { useCopySettings, useSaveCopySettings } from "../api/copy-settings-requests";
import { CopySettingsSelectField, CopySettingsSwitchField, CopySettingsTextField } from "./copy-settings-fields";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

const VOLUME_HINT = "Lots; every volume is rounded down to the slave symbol's volume step";

/**
 * Issue 12 'Copy Settings' card of one slave's Risk Controls tab (an addition to the spec's three
 * cards): sizing, volume bounds, direction, filters, signal lifetime, protection and (issue 14)
 * Auto sync, what reconciliation repairs by itself. Loads the
 * slave's saved settings (defaults until saved) and never shows defaults in place of settings that
 * failed to load, since saving them would overwrite the real ones.
 */
export function CopySettingsCard({ accountId }: { accountId: string }) {
  const { bySlave, isLoading, isError, refetch } = useCopySettings();
  const settings = bySlave.get(accountId);
  return (
    <Card data-testid="card-copy-settings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Copy className="size-5" aria-hidden="true" />
          Copy Settings
        </CardTitle>
        <CardDescription>How this slave sizes, filters and protects the copies it receives</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : isError || !settings ? (
          <div className="flex flex-col items-center gap-3 py-6 text-sm text-muted-foreground">
            <p>Failed to load copy settings.</p>
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <CopySettingsForm accountId={accountId} settings={settings} />
        )}
      </CardContent>
    </Card>
  );
}

function CopySettingsForm({ accountId, settings }: { accountId: string; settings: CopySettings }) {
  const saved = useMemo(() => formFromSettings(settings), [settings]);
  const form = useForm<CopySettingsFormValues, unknown, CopySettingsValues>({
    resolver: copySettingsResolver,
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const save = useSaveCopySettings();
  const operate = usePermission("copy.operate");
  const mode = form.watch("sizingMode");
  const autoSync = form.watch("autoSync");
  const { register, control } = form;
  const errors = form.formState.errors;
  const text = { accountId, register, errors };
  const choice = { accountId, control, errors };
  const volumeHintId = `cs-volume-hint-${accountId}`;
  const volume = { ...text, describedBy: volumeHintId };

  const onSubmit = (values: CopySettingsValues) =>
    save.mutate(
      { slaveAccountId: accountId, settings: values },
      {
        // Saved: current values become the baseline so the refetched ones load over them.
        onSuccess: () => form.reset(form.getValues()),
        onError: (error) => {
          for (const [field, message] of Object.entries(errorsFromIssues(fieldIssuesFrom(error)))) {
            form.setError(field as keyof CopySettingsFormValues, { type: "server", message });
          }
        },
      },
    );

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6" data-testid={`form-copy-settings-${accountId}`}>
      <section className="flex flex-col gap-4" aria-label="Sizing">
        <div className="grid gap-4 md:grid-cols-2">
          <CopySettingsSelectField {...choice} name="sizingMode" label="Sizing Mode" options={SIZING_MODE_LABELS} testId="select-sizing-mode" />
          {mode === "fixed" ? (
            <CopySettingsTextField {...volume} name="fixedVolume" label="Fixed Volume (lots)" type="number" step={0.01} min={0} inputMode="decimal" testId="input-fixed-volume" />
          ) : null}
          {mode === "risk_percent" ? (
            <CopySettingsTextField
              {...text}
              name="riskPercent"
              label="Risk per Trade (% of equity)"
              type="number"
              step={0.1}
              min={0}
              max={100}
              inputMode="decimal"
              hint="Lost at the master's stop loss; a signal without a stop loss is skipped"
              testId="input-risk-percent"
            />
          ) : null}
        </div>
        <div className="grid gap-4 md:grid-cols-3">
          <CopySettingsTextField {...volume} name="minVolume" label="Min Volume (lots)" type="number" step={0.01} min={0} inputMode="decimal" placeholder="No minimum" testId="input-min-volume" />
          <CopySettingsTextField {...volume} name="maxVolume" label="Max Volume (lots)" type="number" step={0.01} min={0} inputMode="decimal" placeholder="No maximum" testId="input-max-volume" />
          <CopySettingsSelectField {...choice} name="tooSmall" label="When the volume is too small" options={TOO_SMALL_LABELS} testId="select-too-small" />
        </div>
        <p id={volumeHintId} className="text-xs text-muted-foreground" data-testid="text-volume-hint">
          {VOLUME_HINT}
        </p>
      </section>
      <Separator />
      <div className="grid gap-6 lg:grid-cols-3">
        <section className="flex flex-col gap-4" aria-label="Direction and stops">
          <CopySettingsSwitchField accountId={accountId} control={control} name="reverse" label="Reverse trades" description="BUY ↔ SELL, SL ↔ TP, limits ↔ stops" testId="switch-reverse" />
          <CopySettingsSwitchField accountId={accountId} control={control} name="copyStopLoss" label="Copy stop loss" testId="switch-copy-sl" />
          <CopySettingsSwitchField accountId={accountId} control={control} name="copyTakeProfit" label="Copy take profit" testId="switch-copy-tp" />
          <CopySettingsSelectField {...choice} name="allowedSides" label="Allowed Sides" options={ALLOWED_SIDES_LABELS} testId="select-allowed-sides" />
        </section>
        <section className="flex flex-col gap-4" aria-label="Filters">
          <CopySettingsTextField {...text} name="magicInclude" label="Magic Numbers to Copy" placeholder="e.g., 100-200, 777" hint="Comma-separated numbers or ranges; empty copies every magic number" testId="input-magic-include" />
          <CopySettingsTextField {...text} name="magicExclude" label="Magic Numbers to Skip" placeholder="e.g., 0" hint="Comma-separated numbers or ranges" testId="input-magic-exclude" />
          <CopySettingsSwitchField accountId={accountId} control={control} name="skipPendingOrders" label="Skip pending orders" description="Copy market orders only" testId="switch-skip-pending" />
        </section>
        <section className="flex flex-col gap-4" aria-label="Timing and protection">
          <CopySettingsTextField
            {...text}
            name="signalLifetimeSeconds"
            label="Signal Lifetime (seconds)"
            type="number"
            step={1}
            min={1}
            inputMode="numeric"
            hint="An open older than this, from the master's event time, is not executed"
            testId="input-signal-lifetime"
          />
          <CopySettingsTextField
            {...text}
            name="dailyProfitTargetPct"
            label="Daily Profit Target (%)"
            type="number"
            step={0.1}
            min={0}
            max={100}
            inputMode="decimal"
            placeholder="No target"
            hint="Of the equity at the start of the broker day; reached, the slave goes close-only"
            testId="input-profit-target"
          />
          <CopySettingsSwitchField
            accountId={accountId}
            control={control}
            name="closePositionsOnStop"
            label="Close positions when protection stops the slave"
            description="When the slave goes close-only, also close its copied positions"
            testId="switch-close-on-stop"
          />
          <CopySettingsSelectField
            {...choice}
            name="autoSync"
            label="Auto sync"
            options={AUTO_SYNC_LABELS}
            hint={<span data-testid="text-auto-sync-help">{AUTO_SYNC_HELP[autoSync]}</span>}
            testId="select-auto-sync"
          />
        </section>
      </div>
      <div className="flex justify-end">
        <PermissionTooltip reason={operate.reason}>
          <Button type="submit" disabled={save.isPending || !operate.allowed} className="w-full sm:w-auto" data-testid="button-save-copy-settings">
            <Save />
            {save.isPending ? "Saving..." : "Save Copy Settings"}
          </Button>
        </PermissionTooltip>
      </div>
    </form>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import type { OrgSettings } from "#contract";
import { Save } from "lucide-react";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { usePermission } from "@/lib/permissions";
import { realtimeUrl } from "@/lib/realtime-message";
import { useOrgSettings, useSaveOrgSettings } from "../api/settings-requests";
import { type SettingsFormOutput, type SettingsFormValues, settingsFormSchema, settingsToForm } from "../lib/settings-form";
import { ApiConfigCard, NotificationCard } from "./settings-cards";
import { SystemInfoCard } from "./system-info-card";

/**
 * §2 /settings: API Configuration, Notification Settings and System Information, loaded from and
 * saved to the organisation's settings on the server (issue 16; GET/PUT /api/settings). 'Save All
 * Changes' shows the §8 toast 'All settings saved successfully.'. Saving needs settings.manage.
 */
export function OrgSettingsSection() {
  const settings = useOrgSettings();
  if (settings.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="loading-settings">
        <Spinner /> Loading settings...
      </div>
    );
  }
  if (settings.isError) {
    return (
      <p className="text-sm text-destructive" data-testid="error-settings">
        Failed to load settings.
      </p>
    );
  }
  return <OrgSettingsForm settings={settings.data} />;
}

function OrgSettingsForm({ settings }: { settings: OrgSettings }) {
  const manage = usePermission("settings.manage");
  const saved = useMemo(() => settingsToForm(settings), [settings]);
  const form = useForm<SettingsFormValues, unknown, SettingsFormOutput>({ resolver: zodResolver(settingsFormSchema), values: saved });
  const save = useSaveOrgSettings();
  // The session token is not part of what is shown: the address the realtime client derives from this page.
  const websocketUrl = useMemo(() => realtimeUrl(window.location, null), []);
  const clearToken = form.watch("clearTelegramToken");

  const onSubmit = (body: SettingsFormOutput) => {
    save.mutate(body);
  };

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6" data-testid="form-settings">
      <div className="grid gap-6 lg:grid-cols-2">
        <ApiConfigCard register={form.register} errors={form.formState.errors} websocketUrl={websocketUrl} />
        <NotificationCard
          register={form.register}
          control={form.control}
          errors={form.formState.errors}
          tokenSet={settings.telegramTokenSet}
          clearToken={clearToken}
          onClearToken={(clear) => form.setValue("clearTelegramToken", clear, { shouldDirty: true })}
        />
      </div>
      <SystemInfoCard />
      <div className="flex justify-end">
        <PermissionTooltip reason={manage.reason}>
          <Button type="submit" className="w-full sm:w-auto" disabled={!manage.allowed || save.isPending} data-testid="button-save-settings">
            <Save />
            Save All Changes
          </Button>
        </PermissionTooltip>
      </div>
    </form>
  );
}

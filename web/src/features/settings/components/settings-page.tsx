import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { loadLocalSettings, saveLocalSettings } from "../lib/local-settings";
import { type SettingsFormOutput, type SettingsFormValues, settingsFormSchema, settingsToForm } from "../lib/settings-form";
import { RetentionCard } from "./retention-card";
import { ApiConfigCard, NotificationCard } from "./settings-cards";
import { SystemInfoCard } from "./system-info-card";

/**
 * §2 /settings: API Configuration, Notification Settings and System Information. 'Save All
 * Changes' keeps the values in browser storage only (§7: nothing is sent to a server) and shows
 * the §8 toast; the form starts from the saved values, or the §3 defaults. Below it, issue 15's
 * Data retention card, saved on the server with its own button.
 */
export function SettingsPage() {
  const initial = useMemo(() => settingsToForm(loadLocalSettings()), []);
  const form = useForm<SettingsFormValues, unknown, SettingsFormOutput>({
    resolver: zodResolver(settingsFormSchema),
    defaultValues: initial,
  });

  const onSubmit = (values: SettingsFormOutput) => {
    if (!saveLocalSettings(values)) {
      toastError("Failed to save settings: browser storage is unavailable.");
      return;
    }
    form.reset(settingsToForm(values));
    toastSuccess("All settings saved successfully.");
  };

  return (
    <div className="flex flex-col gap-6" data-testid="page-settings">
      <PageHeader title="Settings" description="Configure API, notification and system preferences" />
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6" data-testid="form-settings">
        <div className="grid gap-6 lg:grid-cols-2">
          <ApiConfigCard register={form.register} errors={form.formState.errors} />
          <NotificationCard register={form.register} control={form.control} errors={form.formState.errors} />
        </div>
        <SystemInfoCard />
        <div className="flex justify-end">
          <Button type="submit" className="w-full sm:w-auto" data-testid="button-save-settings">
            <Save />
            Save All Changes
          </Button>
        </div>
      </form>
      <RetentionCard />
    </div>
  );
}

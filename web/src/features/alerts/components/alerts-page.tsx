import type { AlertConfig, CreateAlertConfigRequest } from "#contract";
import { BellRing, Plus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useAlertConfigs, useCreateAlertConfig, useDeleteAlertConfig, useTestAlertConfig, useUpdateAlertConfig } from "../api/alert-configs";
import { useAlertDefaults } from "../api/alert-defaults";
import { alertFormFromSettings, alertToForm } from "../lib/alert-form";
import { AlertFormPanel } from "./alert-form-panel";
import { AlertRow } from "./alert-row";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/** §4 form state: closed, create mode, or edit mode of one configuration. */
type Editor = { mode: "create" } | { mode: "edit"; id: string } | null;

/**
 * §2 /alerts Alert Management: the configuration list ('Loading alert configurations...', the
 * empty state) with 'Add Alert' and a side form for create or edit.
 */
export function AlertsPage() {
  const { configs, isLoading, isError, refetch } = useAlertConfigs();
  const create = useCreateAlertConfig();
  const defaults = useAlertDefaults();
  const update = useUpdateAlertConfig();
  const test = useTestAlertConfig();
  const remove = useDeleteAlertConfig();
  const manage = usePermission("alerts.manage");
  const [editor, setEditor] = useState<Editor>(null);
  const formRef = useRef<HTMLDivElement>(null);

  const editing = editor?.mode === "edit" ? configs.find((c) => c.id === editor.id) : undefined;
  // An edited configuration that disappears (deleted) closes the form.
  const open = editor?.mode === "create" || editing !== undefined;

  // The control that opened the form (Add Alert or a row's Edit): keyboard focus moves into the
  // form and, when the form closes, back to that control instead of falling to <body> (WCAG 2.4.3).
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  const openEditor = (next: Editor) => {
    if (!open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setEditor(next);
  };

  useEffect(() => {
    if (open) {
      formRef.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
      formRef.current?.querySelector<HTMLElement>("input")?.focus({ preventScroll: true });
    } else if (wasOpen.current) {
      const target = opener.current;
      opener.current = null;
      // Only when focus was lost with the form; a user who moved on elsewhere keeps their place.
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) (target?.isConnected && !target.matches(":disabled") ? target : document.querySelector<HTMLElement>("main"))?.focus();
    }
    wasOpen.current = open;
  }, [open, editor]);

  const save = async (request: CreateAlertConfigRequest) => {
    if (editing) await update.mutateAsync({ id: editing.id, body: request });
    else await create.mutateAsync(request);
    setEditor(null);
  };

  const rowBusy = (id: string, mutation: { isPending: boolean; variables?: AlertConfig | { id: string } }) => mutation.isPending && mutation.variables?.id === id;

  return (
    <div className="flex flex-col gap-6" data-testid="page-alerts">
      <PageHeader
        title="Alert Management"
        description="Configure notifications for copy failures, disconnects and risk events"
        actions={
          <PermissionTooltip reason={manage.reason}>
            <Button onClick={() => openEditor({ mode: "create" })} disabled={!manage.allowed} data-testid="button-add-alert">
              <Plus />
              Add Alert
            </Button>
          </PermissionTooltip>
        }
      />
      <div className={open ? "grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]" : "flex flex-col"}>
        <section aria-label="Alert configurations" className="order-2 min-w-0 lg:order-1">
          {isLoading ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-testid="text-loading-alerts">
              Loading alert configurations...
            </p>
          ) : isError ? (
            <EmptyState icon={BellRing} title="Failed to load alert configurations." action={<Button variant="outline" onClick={() => void refetch()}>Try again</Button>} />
          ) : configs.length === 0 ? (
            <EmptyState icon={BellRing} title="No alert configurations found. Create your first alert to get started." testId="empty-alerts" />
          ) : (
            <ul className="flex flex-col divide-y rounded-lg border bg-card" aria-label="Alert configurations">
              {configs.map((config) => (
                <AlertRow
                  key={config.id}
                  config={config}
                  editing={editing?.id === config.id}
                  testing={rowBusy(config.id, test)}
                  toggling={rowBusy(config.id, update)}
                  deleting={rowBusy(config.id, remove)}
                  onTest={() => test.mutate(config)}
                  onEdit={() => openEditor({ mode: "edit", id: config.id })}
                  onToggle={(enabled) => update.mutate({ id: config.id, body: { enabled } })}
                  onDelete={() => remove.mutate(config)}
                />
              ))}
            </ul>
          )}
        </section>
        {open ? (
          <div ref={formRef} className="order-1 scroll-mt-4 lg:sticky lg:top-4 lg:order-2">
            <AlertFormPanel
              key={editing ? `edit-${editing.id}` : "create"}
              mode={editing ? "edit" : "create"}
              initialValues={editing ? alertToForm(editing) : alertFormFromSettings(defaults.data)}
              savedTelegramToken={!editing && defaults.data?.telegramTokenSet === true}
              pending={editing ? update.isPending : create.isPending}
              onSubmit={save}
              onCancel={() => setEditor(null)}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

import { zodResolver } from "@hookform/resolvers/zod";
import type { RetentionPolicy, RetentionRequest } from "#contract";
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from "#contract";
import { Archive, Download, Save } from "lucide-react";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useExportTrades, useRetentionPolicy, useSaveRetention, type TradeExportFormat } from "../api/retention-requests";
import { type RetentionFormValues, retentionFormSchema, retentionLossWarning, retentionToForm } from "../lib/retention-form";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

const DAYS_HINT = `Whole days, from ${RETENTION_MIN_DAYS} to ${RETENTION_MAX_DAYS}. Deleted by the hourly cleanup.`;

/**
 * Issue 15 'Data retention' card (an addition to the spec's Settings cards, saved on the server for
 * the whole organisation, unlike the browser-only settings above): how many days closed trades
 * and audit entries are kept, and the export of closed trades as CSV or JSON. A save that lowers a
 * value deletes history, so it asks first, saying what goes.
 */
export function RetentionCard() {
  const { data, isLoading, isError, refetch } = useRetentionPolicy();
  const exporter = useExportTrades();
  const exporting = (format: TradeExportFormat) => exporter.isPending && exporter.variables === format;
  return (
    <Card data-testid="card-retention">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Archive className="size-5" aria-hidden="true" />
          Data retention
        </CardTitle>
        <CardDescription>How long this organisation's trade history and audit log are kept on the server</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : isError || !data ? (
          <div className="flex flex-col items-center gap-3 py-6 text-sm text-muted-foreground">
            <p>Failed to load data retention.</p>
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <RetentionForm policy={data} />
        )}
        <div className="flex flex-col gap-2 border-t pt-4">
          <p className="text-sm text-muted-foreground">Closed trades with every slave's orders, oldest first.</p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" onClick={() => exporter.mutate("csv")} disabled={exporting("csv")} data-testid="button-export-trades-csv">
              <Download />
              {exporting("csv") ? "Exporting..." : "Export trades (CSV)"}
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => exporter.mutate("json")} disabled={exporting("json")} data-testid="button-export-trades-json">
              <Download />
              {exporting("json") ? "Exporting..." : "Export trades (JSON)"}
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function RetentionForm({ policy }: { policy: RetentionPolicy }) {
  const saved = useMemo(() => retentionToForm(policy), [policy]);
  const form = useForm<RetentionFormValues, unknown, RetentionRequest>({ resolver: zodResolver(retentionFormSchema), values: saved });
  const save = useSaveRetention();
  const manage = usePermission("settings.manage");
  const [pending, setPending] = useState<{ body: RetentionRequest; lines: string[] } | null>(null);
  const errors = form.formState.errors;

  const onSubmit = (body: RetentionRequest) => {
    const lines = retentionLossWarning(policy, body);
    if (lines.length > 0) setPending({ body, lines });
    else save.mutate(body);
  };
  const invalid = (name: keyof RetentionFormValues) => (errors[name] ? { "aria-invalid": true, "aria-describedby": fieldErrorId(name) } : {});

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4" data-testid="form-retention">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="closedTradesDays" label="Keep closed trades (days)" error={errors.closedTradesDays?.message} hint={DAYS_HINT}>
          <Input id="closedTradesDays" type="number" min={RETENTION_MIN_DAYS} max={RETENTION_MAX_DAYS} step={1} inputMode="numeric" data-testid="input-closed-trades-days" {...invalid("closedTradesDays")} {...form.register("closedTradesDays")} />
        </FormField>
        <FormField id="auditDays" label="Keep audit entries (days)" error={errors.auditDays?.message} hint={DAYS_HINT}>
          <Input id="auditDays" type="number" min={RETENTION_MIN_DAYS} max={RETENTION_MAX_DAYS} step={1} inputMode="numeric" data-testid="input-audit-days" {...invalid("auditDays")} {...form.register("auditDays")} />
        </FormField>
      </div>
      <div className="flex justify-end">
        <PermissionTooltip reason={manage.reason}>
          <Button type="submit" disabled={save.isPending || !manage.allowed} data-testid="button-save-retention">
            <Save />
            {save.isPending ? "Saving..." : "Save Data Retention"}
          </Button>
        </PermissionTooltip>
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title="Delete older history?"
        description={
          <span className="flex flex-col gap-2">
            {(pending?.lines ?? []).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </span>
        }
        confirmLabel="Save and delete"
        destructive
        testId="dialog-confirm-retention"
        onConfirm={() => {
          if (pending) save.mutate(pending.body);
          setPending(null);
        }}
      />
    </form>
  );
}

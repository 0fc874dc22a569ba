import { CirclePause, Play } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { resumeCopyingDescription, useCopyPause, useResumeOrganisationCopying } from "@/lib/copy-pause";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * "Copying paused" banner (issue 13, Overview): shown while Pause All / PANIC STOP holds the
 * organisation's copying, with **Resume copying** behind a confirmation that says what will happen.
 * Test ids: `banner-copy-paused`, `button-resume-copying`.
 */
export function CopyPausedBanner() {
  const { copyPaused, tenantPausedSlaves } = useCopyPause();
  const resume = useResumeOrganisationCopying();
  const operate = usePermission("copy.operate");
  if (!copyPaused) return null;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-amber-500/60 bg-amber-500/10 p-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="banner-copy-paused"
    >
      <div className="flex items-start gap-3">
        <CirclePause className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
        <div>
          <p className="font-semibold">Copying paused</p>
          <p className="text-sm text-muted-foreground">
            Pause All or PANIC STOP paused copying for the organisation: no new trades are copied to any slave account until copying is resumed.
          </p>
        </div>
      </div>
      <PermissionTooltip reason={operate.reason} className="inline-flex shrink-0 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <ConfirmDialog
          title="Resume copying"
          description={resumeCopyingDescription(tenantPausedSlaves)}
          confirmLabel="Resume copying"
          onConfirm={() => resume.mutate()}
          trigger={
            <Button variant="outline" className="shrink-0" disabled={resume.isPending || !operate.allowed} data-testid="button-resume-copying">
              <Play />
              {resume.isPending ? "Resuming..." : "Resume copying"}
            </Button>
          }
        />
      </PermissionTooltip>
    </div>
  );
}

/** Compact "Copying paused" state for the sidebar, near PANIC STOP (test id `badge-copy-paused`). */
export function CopyPausedBadge() {
  const { copyPaused } = useCopyPause();
  if (!copyPaused) return null;
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 rounded-md border border-amber-500/60 bg-amber-500/10 px-3 py-1.5 text-xs font-semibold tracking-wide text-amber-700 dark:text-amber-300"
      data-testid="badge-copy-paused"
    >
      <CirclePause className="size-3.5" aria-hidden="true" />
      Copying paused
    </p>
  );
}

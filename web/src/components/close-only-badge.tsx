import type { Account } from "#contract";
import { Play } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatRelativeTime } from "@/lib/format";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

type CloseOnlyAccount = Pick<Account, "closeOnly"> & Partial<Pick<Account, "id" | "alias" | "accountNumber">>;

/** "14:05" — local wall-clock time of an ISO timestamp (24 h). */
export function localClock(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

/** Tooltip text of a close-only state: "<reason> — since 14:05 (5m ago)". */
export function closeOnlyTitle(closeOnly: NonNullable<Account["closeOnly"]>, now: number): string {
  return `${closeOnly.reason} — since ${localClock(closeOnly.since)} (${formatRelativeTime(closeOnly.since, now, { hours: true })})`;
}

/** What resuming does, for the confirmation: "S1 will copy new trades again today even though daily loss stop reached (…)." */
export function resumeDescription(name: string, reason: string): string {
  const why = reason ? reason.charAt(0).toLowerCase() + reason.slice(1) : "its protection tripped";
  return `${name} will copy new trades again today even though ${why}.`;
}

export interface CloseOnlyBadgeProps {
  account: CloseOnlyAccount;
  /** Epoch ms for the relative "since" (defaults to the render time). */
  now?: number;
  /** Shows a "Resume" button (with a confirmation) calling this; omit on tabs and other compact places. */
  onResume?: () => void;
  /** A resume of this account is in flight. */
  resuming?: boolean;
}

/**
 * Close-only protection state of a slave (issue 12): nothing when it copies normally; otherwise an
 * amber "Close-only" badge whose title gives the reason and since when, and — with `onResume` —
 * a "Resume" button that asks for confirmation first. Test ids: `badge-close-only`,
 * `button-resume-slave`.
 */
export function CloseOnlyBadge({ account, now = Date.now(), onResume, resuming = false }: CloseOnlyBadgeProps) {
  const operate = usePermission("copy.operate");
  const state = account.closeOnly;
  if (!state) return null;
  const title = closeOnlyTitle(state, now);
  const name = account.alias?.trim() || account.accountNumber || "This slave";
  return (
    <span className="inline-flex items-center gap-2">
      <Badge variant="warning" title={title} aria-label={`Close-only: ${title}`} data-testid="badge-close-only" data-code={state.code}>
        Close-only
      </Badge>
      {onResume ? (
        <PermissionTooltip reason={operate.reason}>
          <ConfirmDialog
            title="Resume copying"
            description={resumeDescription(name, state.reason)}
            confirmLabel="Resume"
            onConfirm={onResume}
            trigger={
              <Button variant="outline" size="sm" className="h-6 px-2 text-xs" disabled={resuming || !operate.allowed} data-testid="button-resume-slave">
                <Play />
                Resume
              </Button>
            }
          />
        </PermissionTooltip>
      ) : null}
    </span>
  );
}

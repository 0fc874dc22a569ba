import { CheckCircle2, CircleHelp, TriangleAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { useSyncSummaries } from "@/lib/sync/sync-queries";
import { type SyncSummaryLike, agoText, syncStatusText } from "@/lib/sync/sync-text";
import { useNow } from "@/lib/use-now";

export interface SyncStatusBadgeProps {
  accountId: string;
  /**
   * Tabs: "In sync" without the checked time (in the title instead), and nothing at all while the
   * account is not checked yet, so a tab keeps its name short.
   */
  compact?: boolean;
}

/**
 * Sync status of a slave (issue 14) on its card or tab, from GET /api/sync: "In sync · checked
 * 12 s ago" (green, ticking every second), "2 differences" (amber), "Not checked yet" (muted).
 * The words carry the state (not the colour only). Test id `badge-sync-<accountId>`, with
 * `data-state` = in_sync | differences | unknown. Nothing while the summaries are not loaded (or
 * could not be): "Not checked yet" would claim what is not known.
 */
export function SyncStatusBadge({ accountId, compact = false }: SyncStatusBadgeProps) {
  const { byAccount, data } = useSyncSummaries();
  if (data === undefined) return null;
  const summary = byAccount.get(accountId);
  const state = summary?.state ?? "unknown";
  if (compact && state === "unknown") return null;
  return <SyncBadgeText accountId={accountId} summary={summary} compact={compact} />;
}

const ICONS = { in_sync: CheckCircle2, differences: TriangleAlert, unknown: CircleHelp } as const;
const VARIANTS = { in_sync: "success", differences: "warning", unknown: "muted" } as const;

/** The ticking part, a leaf so only it re-renders every second. */
function SyncBadgeText({ accountId, summary, compact }: { accountId: string; summary: SyncSummaryLike | undefined; compact: boolean }) {
  const now = useNow(1000);
  const state = summary?.state ?? "unknown";
  const Icon = ICONS[state];
  const text = syncStatusText(summary, now, compact);
  const full = syncStatusText(summary, now);
  const checked = summary ? agoText(summary.checkedAt, now) : null;
  const title = state === "differences" && checked ? `${full} · checked ${checked}` : full;
  return (
    <Badge variant={VARIANTS[state]} title={title} aria-label={`Sync: ${title}`} data-testid={`badge-sync-${accountId}`} data-state={state}>
      <Icon aria-hidden="true" />
      <span className="tabular">{text}</span>
    </Badge>
  );
}

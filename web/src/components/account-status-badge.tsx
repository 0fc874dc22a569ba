import { Badge, type BadgeVariant } from "@/components/ui/badge";

/** §3 account status tones: active, paused, error, inactive; any other value looks 'syncing'. */
export function accountStatusVariant(status: string): BadgeVariant {
  switch (status) {
    case "active":
      return "success";
    case "paused":
      return "warning";
    case "error":
      return "destructive";
    case "inactive":
      return "muted";
    default:
      return "info";
  }
}

/** §2 /master card tones: active green, error red, everything else gray. */
export function masterStatusVariant(status: string): BadgeVariant {
  if (status === "active") return "success";
  if (status === "error") return "destructive";
  return "muted";
}

/**
 * Status badge of an account; `palette="master"` uses the master card colours.
 *
 * `lastHeartbeat` (issue 16): pass the account's last heartbeat to tell an account whose EA never
 * connected apart from one that is running. With `null` (no heartbeat ever) the status word stays
 * (the spec's words: "active") but the badge is gray, not green, and a "Never connected" label
 * follows it — a new account must not look live beside "Last Heartbeat: Never". Leave it
 * `undefined` where the heartbeat is unknown to the caller.
 */
export function AccountStatusBadge({
  status,
  palette = "default",
  testId,
  lastHeartbeat,
}: {
  status: string;
  palette?: "default" | "master";
  testId?: string;
  lastHeartbeat?: string | null;
}) {
  const neverConnected = lastHeartbeat === null;
  const variant = neverConnected && status === "active" ? "muted" : palette === "master" ? masterStatusVariant(status) : accountStatusVariant(status);
  const badge = (
    <Badge variant={variant} data-testid={testId} data-status={status} data-connection={lastHeartbeat === undefined ? undefined : neverConnected ? "never" : "seen"}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
      {status}
    </Badge>
  );
  if (!neverConnected) return badge;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {badge}
      <Badge variant="outline" data-testid={testId ? `${testId}-never-connected` : undefined} title="This account's EA has not sent a heartbeat yet">
        Never connected
      </Badge>
    </span>
  );
}

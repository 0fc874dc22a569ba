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

/** Status badge of an account; `palette="master"` uses the master card colours. */
export function AccountStatusBadge({
  status,
  palette = "default",
  testId,
}: {
  status: string;
  palette?: "default" | "master";
  testId?: string;
}) {
  const variant = palette === "master" ? masterStatusVariant(status) : accountStatusVariant(status);
  return (
    <Badge variant={variant} data-testid={testId} data-status={status}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
      {status}
    </Badge>
  );
}

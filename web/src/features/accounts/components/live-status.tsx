import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { formatDuration } from "@/lib/format";
import { useRealtime } from "@/lib/realtime";
import { useNow } from "@/lib/use-now";

/**
 * §2 Overview: LIVE / DISCONNECTED from the realtime socket, and 'Updated Ns/Nm ago' ticking
 * every second, reset by every socket message (counted from page load before the first one).
 */
export function LiveStatus() {
  const { connected, lastMessageAt } = useRealtime();
  const [openedAt] = useState(() => Date.now());
  const now = useNow(1000);
  const since = lastMessageAt ?? openedAt;

  return (
    <div className="flex items-center gap-3">
      <Badge variant={connected ? "success" : "destructive"} data-testid="status-connection" data-connected={connected}>
        <span className={connected ? "size-2 animate-pulse rounded-full bg-current" : "size-2 rounded-full bg-current"} aria-hidden="true" />
        {connected ? "LIVE" : "DISCONNECTED"}
      </Badge>
      <span className="text-xs text-muted-foreground tabular" data-testid="text-last-updated">
        Updated {formatDuration(Math.max(0, now - since))} ago
      </span>
    </div>
  );
}

import type { ReactNode } from "react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

/**
 * Wraps a control the signed-in role may not use (issue 16): with a `reason` (from
 * `usePermission(...).reason`) the children — already disabled by the caller — sit in a focusable
 * span, because a disabled button takes neither hover nor focus, so the tooltip still shows the
 * reason on pointer hover and keyboard focus. Without a reason the children render unchanged.
 * Test id of the wrapper: `permission-denied`.
 */
export function PermissionTooltip({ reason, children, className }: { reason: string | null; children: ReactNode; className?: string }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span tabIndex={0} className={className ?? "inline-flex rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"} data-testid="permission-denied" data-reason={reason}>
          {children}
        </span>
      </TooltipTrigger>
      <TooltipContent>{reason}</TooltipContent>
    </Tooltip>
  );
}

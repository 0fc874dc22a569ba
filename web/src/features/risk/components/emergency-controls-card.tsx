import { useQueryClient } from "@tanstack/react-query";
import { OctagonX, Pause, TriangleAlert } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { invalidateCopyPause } from "@/lib/copy-pause";
import { useCloseAllPositions, usePauseAllCopying } from "../api/risk-requests";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2 /risk Emergency Controls (destructive style): 'Pause All Copying' ('Pausing...') and
 * 'Close All Positions', which really queues a close-all to every slave after a confirmation.
 * Pausing shows the organisation's "Copying paused" state (sidebar, Overview) at once.
 */
export function EmergencyControlsCard() {
  const queryClient = useQueryClient();
  const pause = usePauseAllCopying();
  const closeAll = useCloseAllPositions();
  const operate = usePermission("copy.operate");
  return (
    <Card className="border-destructive/60 bg-destructive/5" data-testid="card-emergency-controls">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <TriangleAlert className="size-5" aria-hidden="true" />
          Emergency Controls
        </CardTitle>
        <CardDescription>Stop copying to every slave account, or flatten every copied position at once.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row">
        <PermissionTooltip reason={operate.reason}>
          <Button variant="outline" className="border-destructive/60 text-destructive hover:bg-destructive/10 hover:text-destructive" disabled={pause.isPending || !operate.allowed} onClick={() => pause.mutate(undefined, { onSuccess: () => void invalidateCopyPause(queryClient) })} data-testid="button-pause-all">
            <Pause />
            {pause.isPending ? "Pausing..." : "Pause All Copying"}
          </Button>
        </PermissionTooltip>
        <PermissionTooltip reason={operate.reason}>
          <ConfirmDialog
            title="Close All Positions"
            description="Are you sure you want to close all positions? Every slave account will close all copied positions and delete its pending orders. Copying continues."
            confirmLabel="Close All Positions"
            destructive
            onConfirm={() => closeAll.mutate()}
            trigger={
              <Button variant="destructive" disabled={closeAll.isPending || !operate.allowed} data-testid="button-close-all">
                <OctagonX />
                {closeAll.isPending ? "Closing..." : "Close All Positions"}
              </Button>
            }
          />
        </PermissionTooltip>
      </CardContent>
    </Card>
  );
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { OctagonX } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { toast, toastError } from "@/components/ui/use-toast";
import { invalidateAccountQueries } from "@/lib/account-queries";
import { apiRequest, failureText } from "@/lib/api-client";
import { invalidateCopyPause } from "@/lib/copy-pause";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

/**
 * §2/§4 PANIC STOP: confirm, then POST /api/emergency/panic-stop (response not read). The button
 * reads 'EXECUTING...' and is disabled while it runs; §8 toasts on success and failure.
 */
export function PanicStopButton() {
  const queryClient = useQueryClient();
  const operate = usePermission("copy.operate");
  const panicStop = useMutation({
    mutationFn: () => apiRequest("POST", "/api/emergency/panic-stop"),
    onSuccess: async () => {
      toast({ title: "PANIC STOP Executed", description: "All positions closed and copying paused.", variant: "destructive" });
      // The pause state is refetched alongside, not awaited: the button's state follows the accounts as before.
      void invalidateCopyPause(queryClient);
      await invalidateAccountQueries(queryClient);
    },
    onError: (error) => {
      console.error("Panic stop failed", error);
      toastError(failureText("Failed to execute panic stop.", error));
    },
  });

  return (
    <PermissionTooltip reason={operate.reason} className="flex w-full rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <ConfirmDialog
        title="PANIC STOP"
        description="Are you sure you want to execute PANIC STOP? This will close all positions and pause copying."
        confirmLabel="Execute PANIC STOP"
        destructive
        onConfirm={() => panicStop.mutate()}
        trigger={
          <Button variant="destructive" className="w-full font-bold tracking-wide" disabled={panicStop.isPending || !operate.allowed} data-testid="button-panic-stop">
            <OctagonX />
            {panicStop.isPending ? "EXECUTING..." : "PANIC STOP"}
          </Button>
        }
      />
    </PermissionTooltip>
  );
}

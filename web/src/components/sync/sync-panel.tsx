import type { Account, SyncPlan } from "#contract";
import { RefreshCcw, Send, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { slaveTabLabel } from "@/components/slave-tabs";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { planChangedFrom, useSyncApply, useSyncDryRun, useSyncStatus } from "@/lib/sync/sync-queries";
import { applyQuestion, checkedLineText, queuedToastText, syncStatusText } from "@/lib/sync/sync-text";
import { useNow } from "@/lib/use-now";
import { PlanOrdersList, SyncDifferenceList, SyncPlanView } from "./sync-lists";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

type SyncAccount = Pick<Account, "id" | "alias" | "accountNumber">;

const AUTO_SYNC_WORDS = { off: "Off", close_orphans: "Close orphans", full: "Full repair" } as const;
const DRY_RUN_FAILED = "Failed to make the repair plan";
const APPLY_FAILED = "Failed to queue the repair orders";

export interface SyncPanelProps {
  account: SyncAccount;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Differences panel of one account (issue 14): when it was checked and how old its snapshot is,
 * each difference, then "Dry run" (POST dryRun:true: the plan, nothing sent) and "Apply" (only
 * after a dry run, with a confirmation listing exactly the orders; POST dryRun:false with the
 * plan id shown; the panel then closes with the toast "N repair orders queued"). A 409
 * `plan_changed` shows the server's message and the new plan instead, nothing sent.
 * Test ids: `dialog-sync-<id>`, `text-sync-checked`, `text-sync-state`, `button-sync-dry-run`,
 * `button-sync-apply`, `text-plan-changed`; confirmation `dialog-confirm` / `button-confirm`.
 */
export function SyncPanel({ account, open, onOpenChange }: SyncPanelProps) {
  const name = slaveTabLabel(account);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" data-testid={`dialog-sync-${account.id}`}>
        <DialogHeader>
          <DialogTitle>Sync — {name}</DialogTitle>
          <DialogDescription>Differences between this account&apos;s latest snapshot and what CopyBridge expects, and the orders that would repair them.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: a fresh panel (no leftover plan) each time it opens. */}
        {open ? <SyncPanelBody accountId={account.id} name={name} onQueued={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** `onQueued`: the plan was queued (the panel closes; the card's status follows the slave's next snapshot). */
function SyncPanelBody({ accountId, name, onQueued }: { accountId: string; name: string; onQueued: () => void }) {
  const now = useNow(1000);
  const status = useSyncStatus(accountId);
  const dryRun = useSyncDryRun(accountId);
  const apply = useSyncApply(accountId);
  // Dry run and Apply are both POST /api/accounts/:id/sync, which needs copy.operate.
  const operate = usePermission("copy.operate");
  /** The plan the user saw last (dry run or the one a 409 carried): the only one Apply sends. */
  const [shown, setShown] = useState<SyncPlan | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const runDryRun = (keepChanged = false) =>
    dryRun.mutate(undefined, {
      onSuccess: (result) => {
        setShown(result.plan);
        if (!keepChanged) setChanged(null);
      },
      onError: (error) => {
        console.error(DRY_RUN_FAILED, error);
        toastError(errorMessageFrom(error, DRY_RUN_FAILED));
      },
    });

  const runApply = (plan: SyncPlan) =>
    apply.mutate(plan.planId, {
      onSuccess: (result) => {
        toastSuccess(queuedToastText(result.queued));
        onQueued();
      },
      onError: (error) => {
        const planChanged = planChangedFrom(error);
        if (!planChanged) {
          console.error(APPLY_FAILED, error);
          toastError(errorMessageFrom(error, APPLY_FAILED));
          return;
        }
        // The account moved since the dry run: show why and the new plan; nothing was sent.
        setChanged(planChanged.message);
        if (planChanged.plan) setShown(planChanged.plan);
        else {
          setShown(null);
          runDryRun(true);
        }
      },
    });

  if (status.isLoading) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (status.isError || !status.data) {
    return (
      <div className="flex flex-col items-center gap-3 py-6 text-sm text-muted-foreground">
        <p>Failed to load the sync status.</p>
        <Button variant="outline" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const s = status.data;
  const canApply = shown !== null && shown.orders.length > 0 && !apply.isPending && !dryRun.isPending;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium" data-testid="text-sync-state" data-state={s.state}>
          {syncStatusText({ state: s.state, differenceCount: s.differences.length, checkedAt: s.checkedAt }, now)}
        </span>
        <span className="text-xs text-muted-foreground tabular" data-testid="text-sync-checked" title={s.checkedAt ?? undefined}>
          {checkedLineText(s.checkedAt, s.snapshotAgeSeconds, now)} · Auto sync: {AUTO_SYNC_WORDS[s.autoSync]}
        </span>
      </div>
      {s.state === "unknown" ? (
        <p className="text-sm text-muted-foreground" data-testid="text-sync-unknown">
          No snapshot to compare yet: the account&apos;s EA sends one on start, after a reconnect and every 5 minutes.
        </p>
      ) : s.differences.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="text-sync-none">
          No differences: the account holds exactly what CopyBridge expects.
        </p>
      ) : (
        <SyncDifferenceList differences={s.differences} />
      )}
      {changed ? (
        <p className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm text-warning" role="alert" data-testid="text-plan-changed">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {changed}
        </p>
      ) : null}
      {shown ? <SyncPlanView plan={shown} /> : null}
      <DialogFooter>
        <PermissionTooltip reason={operate.reason}>
          <Button variant="outline" onClick={() => runDryRun()} disabled={dryRun.isPending || apply.isPending || !operate.allowed} data-testid="button-sync-dry-run">
            <RefreshCcw className={dryRun.isPending ? "animate-spin" : undefined} />
            Dry run
          </Button>
        </PermissionTooltip>
        <PermissionTooltip reason={operate.reason}>
          <Button
            onClick={() => setConfirming(true)}
            disabled={!canApply || !operate.allowed}
            title={shown === null && operate.allowed ? "Run a dry run first to see the plan" : undefined}
            data-testid="button-sync-apply"
          >
            <Send />
            {apply.isPending ? "Applying..." : "Apply"}
          </Button>
        </PermissionTooltip>
      </DialogFooter>
      {shown ? (
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogContent data-testid="dialog-confirm">
            <AlertDialogHeader>
              <AlertDialogTitle>Apply the repair plan</AlertDialogTitle>
              <AlertDialogDescription data-testid="text-apply-question">{applyQuestion(shown.orders.length, name)}</AlertDialogDescription>
            </AlertDialogHeader>
            <PlanOrdersList plan={shown} />
            <AlertDialogFooter>
              <AlertDialogCancel data-testid="button-cancel-confirm">Cancel</AlertDialogCancel>
              <AlertDialogAction data-testid="button-confirm" onClick={() => runApply(shown)}>
                Send
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      ) : null}
    </div>
  );
}

/** "Sync" button opening the differences panel (slave cards, slave tabs). Test id `button-sync-<id>`. */
export function SyncButton({ account }: { account: SyncAccount }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid={`button-sync-${account.id}`}>
        <RefreshCcw />
        Sync
      </Button>
      <SyncPanel account={account} open={open} onOpenChange={setOpen} />
    </>
  );
}

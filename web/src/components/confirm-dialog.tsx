import type { ReactElement, ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { buttonVariants } from "@/components/ui/button";

export interface ConfirmDialogProps {
  /** Element that opens the dialog (rendered as the trigger itself). Omit when controlled. */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  /** The question, word for word from the spec (e.g. §5 deletion confirmations). */
  description: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for irreversible actions. */
  destructive?: boolean;
  onConfirm: () => void;
  /**
   * Extra test id naming this particular confirmation (e.g. `dialog-confirm-key-disable`), on a
   * layout-neutral wrapper inside the dialog; the dialog itself keeps `dialog-confirm`.
   */
  testId?: string;
}

/**
 * Confirmation step before a destructive command (§2 PANIC STOP, §5 deletions). The confirm
 * button has test id `button-confirm`, cancel has `button-cancel-confirm`.
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = "Confirm",
  cancelLabel = "Cancel",
  destructive = false,
  onConfirm,
  testId,
}: ConfirmDialogProps) {
  const content = (
    <>
      <AlertDialogHeader>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
      </AlertDialogHeader>
      <AlertDialogFooter>
        <AlertDialogCancel data-testid="button-cancel-confirm">{cancelLabel}</AlertDialogCancel>
        <AlertDialogAction
          data-testid="button-confirm"
          className={destructive ? buttonVariants({ variant: "destructive" }) : undefined}
          onClick={onConfirm}
        >
          {confirmLabel}
        </AlertDialogAction>
      </AlertDialogFooter>
    </>
  );
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent data-testid="dialog-confirm">
        {testId ? (
          <div className="contents" data-testid={testId}>
            {content}
          </div>
        ) : (
          content
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

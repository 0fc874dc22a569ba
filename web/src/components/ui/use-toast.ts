import { type ReactNode, useSyncExternalStore } from "react";
import type { ToastProps } from "./toast";

/** §9: at most one toast visible at a time. */
export const TOAST_LIMIT = 1;
/** Time a dismissed toast stays mounted so Radix can finish closing it. */
const TOAST_REMOVE_DELAY = 1000;

export interface ToasterToast extends Omit<ToastProps, "title"> {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}

type Listener = (toasts: ToasterToast[]) => void;

let toasts: ToasterToast[] = [];
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToasterToast[]): void {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Closes one toast, or all of them without an id. */
export function dismissToast(id?: string): void {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

export type ToastInput = Omit<ToasterToast, "id">;

/**
 * Shows a toast (shadcn/ui `toast()`): the newest replaces the visible one (TOAST_LIMIT 1).
 * Returns its id with `dismiss` and `update` helpers.
 */
export function toast(input: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const entry: ToasterToast = {
    ...input,
    id,
    open: true,
    onOpenChange: (open) => {
      if (!open) dismissToast(id);
    },
  };
  emit([entry, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (patch: ToastInput) => emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t))),
  };
}

/** §8 success toast: title 'Success' unless another title is given. */
export function toastSuccess(description: ReactNode, title: ReactNode = "Success") {
  return toast({ title, description });
}

/** §8 failure toast: title 'Error', destructive style. */
export function toastError(description: ReactNode, title: ReactNode = "Error") {
  return toast({ title, description, variant: "destructive" });
}

/** Snapshot of the toasts currently kept (at most TOAST_LIMIT). */
export function getToasts(): readonly ToasterToast[] {
  return toasts;
}

/** Calls `listener` whenever the toast list changes; returns the unsubscribe function. */
export function subscribeToToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Current toasts plus the imperative helpers, for the <Toaster>. */
export function useToast() {
  const state = useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
  return { toasts: state, toast, dismiss: dismissToast };
}

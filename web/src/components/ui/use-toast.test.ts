import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOAST_LIMIT, dismissToast, getToasts, subscribeToToasts, toast, toastError, toastSuccess } from "./use-toast";

describe("toast store (§9: one toast at a time)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    dismissToast();
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it("keeps only the newest toast", () => {
    expect(TOAST_LIMIT).toBe(1);
    toast({ title: "first" });
    toast({ title: "second" });
    expect(getToasts()).toHaveLength(1);
    expect(getToasts()[0]?.title).toBe("second");
  });

  it("titles success and failure toasts per §8", () => {
    toastSuccess("Saved.");
    expect(getToasts()[0]).toMatchObject({ title: "Success", description: "Saved." });
    toastError("Nope.");
    expect(getToasts()[0]).toMatchObject({ title: "Error", description: "Nope.", variant: "destructive" });
  });

  it("closes a dismissed toast, then removes it", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToToasts(listener);
    const { dismiss } = toast({ title: "bye" });
    dismiss();
    expect(getToasts()[0]?.open).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(getToasts()).toHaveLength(0);
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });
});

import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils";

/** Spinning loader announced to assistive technology as "Loading". */
export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <LoaderCircle className={cn("size-6 animate-spin text-muted-foreground", className)} aria-hidden="true" />
    </span>
  );
}

/** Full-screen centred spinner (§2: shown while authentication status is loading). */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center" data-testid="spinner-auth">
      <Spinner className="size-8" />
    </div>
  );
}

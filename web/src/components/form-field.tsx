import type { ReactNode } from "react";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** Id of the error message rendered by <FormField> for control `id` (for aria-describedby). */
export const fieldErrorId = (id: string) => `${id}-error`;

/**
 * Label + control + validation message. The label is bound to the control through `htmlFor`
 * (the control must carry the same `id`); the message shows under the field (§5).
 */
export function FormField({
  id,
  label,
  error,
  hint,
  children,
  className,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <div className="text-xs text-muted-foreground">{hint}</div> : null}
      {error ? (
        <p id={fieldErrorId(id)} className="text-sm text-destructive" data-testid={`error-${id}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** shadcn/ui card container. */
export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("rounded-lg border bg-card text-card-foreground shadow-sm", className)} {...props} />;
}

/** Card header (title, description, optional actions). */
export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 p-5", className)} {...props} />;
}

/**
 * Card title: an h2, since cards sit directly under the screen's h1 (PageHeader); headings inside
 * a card start at h3. Skipping a level (h1 → h3) breaks heading navigation (axe heading-order).
 */
export function CardTitle({ className, ...props }: ComponentProps<"h2">) {
  return <h2 className={cn("leading-tight font-semibold tracking-tight", className)} {...props} />;
}

/** Card description line under the title. */
export function CardDescription({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

/** Card body. */
export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("p-5 pt-0", className)} {...props} />;
}

/** Card footer row. */
export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex items-center p-5 pt-0", className)} {...props} />;
}

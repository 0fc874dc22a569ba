import type { ReactNode } from "react";
import { Brand } from "@/components/brand";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/skip-link";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

/**
 * Centred card used by the public screens (login, register, forgot password): a skip link, then
 * the page as the document's <main> landmark with the card title as its one h1.
 */
export function AuthLayout({
  title,
  description,
  children,
  footer,
  testId,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  testId: string;
}) {
  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-10 focus:outline-none" data-testid={testId}>
        <Brand />
        <Card className="w-full max-w-md">
          <CardHeader>
            <h1 className="text-xl leading-tight font-semibold tracking-tight">{title}</h1>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent className="flex flex-col gap-4">{children}</CardContent>
        </Card>
        {footer ? <div className="text-sm text-muted-foreground">{footer}</div> : null}
      </main>
    </>
  );
}

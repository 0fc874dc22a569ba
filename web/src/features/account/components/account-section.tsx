import { UserRound } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Separator } from "@/components/ui/separator";
import { ChangePasswordForm } from "./change-password-form";
import { TwoFactorSettings } from "./two-factor-settings";

/**
 * Issue 16 "Your account" card on Settings: the signed-in user's own password and two-factor
 * sign-in (any role). Test id: `card-account`.
 */
export function AccountSection() {
  return (
    <Card data-testid="card-account">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserRound className="size-5" aria-hidden="true" />
          Your account
        </CardTitle>
        <CardDescription>Your password and two-factor sign-in</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <ChangePasswordForm />
        <Separator />
        <TwoFactorSettings />
      </CardContent>
    </Card>
  );
}

import { ArrowLeft, Mail } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { AuthLayout } from "./auth-layout";

/** §2 /forgot-password: reset is coming soon; contact support; link back to sign in. */
export function ForgotPasswordPage() {
  return (
    <AuthLayout testId="page-forgot-password" title="Forgot password?" description="Self-service password reset is coming soon.">
      <div className="flex items-start gap-3 rounded-md border bg-muted/50 p-4 text-sm">
        <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <p>Password reset is coming soon. In the meantime, please contact support to regain access to your account.</p>
      </div>
      <Button asChild variant="outline">
        <Link to="/login" data-testid="link-login">
          <ArrowLeft />
          Back to sign in
        </Link>
      </Button>
    </AuthLayout>
  );
}

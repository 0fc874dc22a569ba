import { type ForgotPasswordRequest, forgotPasswordRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, Mail, MailCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { useAuthCapabilities, useForgotPassword } from "../api/password-reset-requests";
import { AuthLayout } from "./auth-layout";

function BackToSignIn() {
  return (
    <Button asChild variant="outline">
      <Link to="/login" data-testid="link-login">
        <ArrowLeft />
        Back to sign in
      </Link>
    </Button>
  );
}

/**
 * §2 /forgot-password. Without e-mail on the server (GET /api/auth/capabilities → passwordReset
 * false) it keeps the spec's text: reset is coming soon, contact support, link back to sign in.
 * With it, an email form that always answers with the same neutral message (issue 16), whether
 * or not the address has an account.
 */
export function ForgotPasswordPage() {
  const capabilities = useAuthCapabilities();
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordRequest>({ resolver: zodResolver(forgotPasswordRequestSchema), defaultValues: { email: "" } });

  if (capabilities.isLoading) {
    return (
      <AuthLayout testId="page-forgot-password" title="Forgot password?">
        <div className="flex justify-center py-4">
          <Spinner />
        </div>
      </AuthLayout>
    );
  }

  if (capabilities.data?.passwordReset !== true) {
    return (
      <AuthLayout testId="page-forgot-password" title="Forgot password?" description="Self-service password reset is coming soon.">
        <div className="flex items-start gap-3 rounded-md border bg-muted/50 p-4 text-sm">
          <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <p>Password reset is coming soon. In the meantime, please contact support to regain access to your account.</p>
        </div>
        <BackToSignIn />
      </AuthLayout>
    );
  }

  const onSubmit = handleSubmit((values) =>
    forgot.mutate(values.email, { onError: (error) => toastError(errorMessageFrom(error, "Something went wrong. Please try again.")) }),
  );

  return (
    <AuthLayout testId="page-forgot-password" title="Forgot password?" description="Enter your email and we'll send you a link to reset your password.">
      {forgot.data ? (
        <div role="status" className="flex items-start gap-3 rounded-md border bg-muted/50 p-4 text-sm" data-testid="notice-reset-sent">
          <MailCheck className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <p>{forgot.data.message} The link works once, for 30 minutes.</p>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField id="email" label="Email" error={errors.email?.message}>
            <Input
              id="email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? fieldErrorId("email") : undefined}
              data-testid="input-email"
              {...register("email")}
            />
          </FormField>
          <Button type="submit" disabled={forgot.isPending} data-testid="button-send-reset">
            {forgot.isPending ? "Sending..." : "Send reset link"}
          </Button>
        </form>
      )}
      <BackToSignIn />
    </AuthLayout>
  );
}

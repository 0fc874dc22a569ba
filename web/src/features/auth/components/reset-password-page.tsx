import { type ResetPasswordRequest, resetPasswordRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { useResetPassword } from "../api/password-reset-requests";
import { AuthLayout } from "./auth-layout";

/**
 * /reset-password?token=… (issue 16, the e-mailed link): new password and confirmation (each with
 * show/hide, as on /register) checked by the contract's rules; on success to /login?reset=true,
 * which shows a notice. A bad, used or expired link shows the server's message.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const token = params.get("token") ?? "";
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordRequest>({ resolver: zodResolver(resetPasswordRequestSchema), defaultValues: { token, password: "", confirmPassword: "" } });

  const onSubmit = handleSubmit((values) =>
    reset.mutate(
      { ...values, token },
      {
        onSuccess: () => void navigate("/login?reset=true", { replace: true }),
        onError: (error) => toastError(errorMessageFrom(error, "This reset link is invalid or has expired")),
      },
    ),
  );

  const field = (name: "password" | "confirmPassword") => ({
    id: name,
    autoComplete: "new-password",
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? fieldErrorId(name) : undefined,
    "data-testid": name === "password" ? "input-password" : "input-confirm-password",
    ...register(name),
  });

  return (
    <AuthLayout testId="page-reset-password" title="Choose a new password" description="Enter a new password for your CopyBridge account.">
      {token ? (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField id="password" label="New Password" error={errors.password?.message}>
            <PasswordInput toggleTestId="button-toggle-password" {...field("password")} />
          </FormField>
          <FormField id="confirmPassword" label="Confirm Password" error={errors.confirmPassword?.message}>
            <PasswordInput toggleTestId="button-toggle-confirm-password" {...field("confirmPassword")} />
          </FormField>
          <Button type="submit" disabled={reset.isPending} data-testid="button-reset-password">
            {reset.isPending ? "Saving..." : "Set new password"}
          </Button>
        </form>
      ) : (
        <p role="alert" className="text-sm text-destructive" data-testid="text-reset-invalid">
          This reset link is invalid or has expired
        </p>
      )}
      <Button asChild variant="outline">
        <Link to="/login" data-testid="link-login">
          <ArrowLeft />
          Back to sign in
        </Link>
      </Button>
    </AuthLayout>
  );
}

import { type LoginRequest, type LoginResponse, loginRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { CircleCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { useAuth } from "@/lib/auth";
import { useLogin } from "../api/use-login";
import { safeNextPath } from "../lib/next-path";
import { AuthLayout } from "./auth-layout";
import { TwoFactorStep } from "./two-factor-step";

/**
 * §2 /login: email and password (show/hide), 'Forgot password?' and sign-up links, the green
 * notice after registration; on success stores the session (§4) and goes to /, or to the page the
 * visitor asked for (`?next=/path`, same-origin paths only; issue 16). With two-factor on, a
 * second step asks for the "Authentication code" (or a recovery code) before the session opens.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { login } = useAuth();
  const loginMutation = useLogin();
  const [challenge, setChallenge] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginRequest>({ resolver: zodResolver(loginRequestSchema), defaultValues: { email: "", password: "" } });

  const finish = (session: LoginResponse) => {
    login(session);
    void navigate(safeNextPath(params.get("next")), { replace: true });
  };

  const onSubmit = handleSubmit((values) =>
    loginMutation.mutate(values, {
      onSuccess: (result) => {
        if ("twoFactorRequired" in result) setChallenge(result.challenge);
        else finish(result);
      },
      onError: (error) => toastError(errorMessageFrom(error, "Login failed. Please check your credentials.")),
    }),
  );

  return (
    <AuthLayout
      testId="page-login"
      title="Sign in"
      description="Sign in to your CopyBridge dashboard"
      footer={
        <>
          Don&apos;t have an account?{" "}
          <Link to="/register" className="font-medium text-primary hover:underline" data-testid="link-register">
            Create an account
          </Link>
        </>
      }
    >
      {params.get("registered") === "true" ? (
        <div
          role="status"
          className="flex items-start gap-2 rounded-md border border-success/40 bg-success/10 p-3 text-sm text-success"
          data-testid="notice-registered"
        >
          <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Account created successfully! Please sign in to continue.
        </div>
      ) : null}
      {params.get("reset") === "true" ? (
        <div
          role="status"
          className="flex items-start gap-2 rounded-md border border-success/40 bg-success/10 p-3 text-sm text-success"
          data-testid="notice-password-reset"
        >
          <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Your password has been reset. Please sign in with your new password.
        </div>
      ) : null}
      {challenge ? (
        <TwoFactorStep challenge={challenge} onSuccess={finish} onRestart={() => setChallenge(null)} />
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
          <FormField id="password" label="Password" error={errors.password?.message}>
            <PasswordInput
              id="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? fieldErrorId("password") : undefined}
              data-testid="input-password"
              toggleTestId="button-toggle-password"
              {...register("password")}
            />
          </FormField>
          <div className="-mt-2 flex justify-end">
            <Link to="/forgot-password" className="text-sm text-primary hover:underline" data-testid="link-forgot-password">
              Forgot password?
            </Link>
          </div>
          <Button type="submit" disabled={loginMutation.isPending} data-testid="button-login">
            {loginMutation.isPending ? "Signing in..." : "Sign In"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

import { type RegisterRequest, registerRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { useRegister } from "../api/use-register";
import { AuthLayout } from "./auth-layout";

type RegisterForm = z.input<typeof registerRequestSchema>;
type FieldName = keyof RegisterForm;

const EMPTY: RegisterForm = {
  firstName: "",
  lastName: "",
  email: "",
  tenantName: "",
  tenantSlug: "",
  password: "",
  confirmPassword: "",
};

const testId = (name: FieldName) => `input-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * §2 /register: user, organisation and password fields validated by the contract's §5 schema
 * (each message under its field); POST /api/auth/register, then /login?registered=true.
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const registerMutation = useRegister();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<RegisterForm, unknown, RegisterRequest>({ resolver: zodResolver(registerRequestSchema), defaultValues: EMPTY });
  const slug = useWatch({ control, name: "tenantSlug" });

  const inputProps = (name: FieldName) => ({
    id: name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? fieldErrorId(name) : undefined,
    "data-testid": testId(name),
    ...register(name),
  });

  const onSubmit = handleSubmit((values) =>
    registerMutation.mutate(values, {
      onSuccess: () => void navigate("/login?registered=true"),
      onError: (error) => toastError(errorMessageFrom(error, "Registration failed. Please try again.")),
    }),
  );

  return (
    <AuthLayout
      testId="page-register"
      title="Create your account"
      description="Set up your organization and start copying trades"
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-primary hover:underline" data-testid="link-login">
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="firstName" label="First Name" error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...inputProps("firstName")} />
          </FormField>
          <FormField id="lastName" label="Last Name" error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...inputProps("lastName")} />
          </FormField>
        </div>
        <FormField id="email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...inputProps("email")} />
        </FormField>
        <FormField id="tenantName" label="Organization Name" error={errors.tenantName?.message}>
          <Input autoComplete="organization" placeholder="Acme Trading" {...inputProps("tenantName")} />
        </FormField>
        <FormField
          id="tenantSlug"
          label="Organization ID"
          error={errors.tenantSlug?.message}
          hint={
            <>
              {/* Issue 16: the preview shows an address that answers. Nothing is served per Organization
                  ID (one server, one sign-in page for every organisation), so it is the sign-in page,
                  and the ID is said to be what names the organisation there. */}
              Your dashboard URL:{" "}
              <span className="font-mono break-all" data-testid="text-dashboard-url">
                {window.location.origin}/login
              </span>{" "}
              <span data-testid="text-dashboard-url-note">
                — everyone in{" "}
                {slug ? <span className="font-mono text-foreground">{slug}</span> : <span className="italic">your organization</span>} signs in there with their
                own email.
              </span>
            </>
          }
        >
          <Input autoComplete="off" autoCapitalize="none" spellCheck={false} placeholder="acme-trading" {...inputProps("tenantSlug")} />
        </FormField>
        <FormField id="password" label="Password" error={errors.password?.message}>
          <PasswordInput autoComplete="new-password" toggleTestId="button-toggle-password" {...inputProps("password")} />
        </FormField>
        <FormField id="confirmPassword" label="Confirm Password" error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" toggleTestId="button-toggle-confirm-password" {...inputProps("confirmPassword")} />
        </FormField>
        <Button type="submit" disabled={registerMutation.isPending} data-testid="button-register">
          {registerMutation.isPending ? "Creating account..." : "Create Account"}
        </Button>
      </form>
    </AuthLayout>
  );
}

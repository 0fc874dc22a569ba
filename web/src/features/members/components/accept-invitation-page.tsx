import { type AcceptInvitationRequest, acceptInvitationRequestSchema, ROLE_LABELS } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { z } from "zod";
import { Brand } from "@/components/brand";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/skip-link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { useAuth } from "@/lib/auth";
import { useAcceptInvitation, useInvitationPreview } from "../api/invitation-requests";

type AcceptForm = z.input<typeof acceptInvitationRequestSchema>;
type FieldName = Exclude<keyof AcceptForm, "token">;

/** Shown for a link that is unknown, already used, revoked or expired. */
export const INVALID_INVITATION = "This invitation link is invalid or has expired. Ask the person who invited you for a new one.";

const testId = (name: FieldName) => `input-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * Issue 16 /accept-invitation?token=…: previews the invitation (organisation, email, role), asks
 * the new member's name and password (show/hide, confirmed), then POSTs /api/invitations/accept,
 * stores the returned session the way /login does and goes to "/". An invalid link says so, with a
 * link to sign in. Test id: `page-accept-invitation`.
 */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const preview = useInvitationPreview(token);

  let body: ReactNode;
  if (token && preview.isLoading) {
    body = (
      <div className="flex justify-center py-6">
        <Spinner />
      </div>
    );
  } else if (!token || preview.isError || !preview.data) {
    body = (
      <p role="alert" className="text-sm text-destructive" data-testid="text-invitation-invalid">
        {INVALID_INVITATION}
      </p>
    );
  } else {
    const { tenantName, email, role } = preview.data;
    body = (
      <>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="invitation-preview">
          <dt className="text-muted-foreground">Organisation</dt>
          <dd className="font-medium break-all" data-testid="text-invitation-tenant">{tenantName}</dd>
          <dt className="text-muted-foreground">Email</dt>
          <dd className="break-all" data-testid="text-invitation-email">{email}</dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd data-testid="text-invitation-role">{ROLE_LABELS[role]}</dd>
        </dl>
        <AcceptForm token={token} />
      </>
    );
  }

  return (
    <>
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-10 focus:outline-none" data-testid="page-accept-invitation">
        <Brand />
        <Card className="w-full max-w-md">
          <CardHeader>
            <h1 className="text-xl leading-tight font-semibold tracking-tight">Accept invitation</h1>
            <CardDescription>Create your sign-in to join the organisation</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">{body}</CardContent>
        </Card>
        <div className="text-sm text-muted-foreground">
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-primary hover:underline" data-testid="link-login">
            Sign in
          </Link>
        </div>
      </main>
    </>
  );
}

function AcceptForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const { login } = useAuth();
  const accept = useAcceptInvitation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AcceptForm, unknown, AcceptInvitationRequest>({
    resolver: zodResolver(acceptInvitationRequestSchema),
    defaultValues: { token, firstName: "", lastName: "", password: "", confirmPassword: "" },
  });

  const inputProps = (name: FieldName) => ({
    id: name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? fieldErrorId(name) : undefined,
    "data-testid": testId(name),
    ...register(name),
  });

  const onSubmit = handleSubmit((values) =>
    accept.mutate(values, {
      onSuccess: (session) => {
        login(session);
        void navigate("/", { replace: true });
      },
      onError: (error) => toastError(errorMessageFrom(error, "Could not accept the invitation. Please try again.")),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="firstName" label="First Name" error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...inputProps("firstName")} />
        </FormField>
        <FormField id="lastName" label="Last Name" error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...inputProps("lastName")} />
        </FormField>
      </div>
      <FormField id="password" label="Password" error={errors.password?.message}>
        <PasswordInput autoComplete="new-password" toggleTestId="button-toggle-password" {...inputProps("password")} />
      </FormField>
      <FormField id="confirmPassword" label="Confirm Password" error={errors.confirmPassword?.message}>
        <PasswordInput autoComplete="new-password" toggleTestId="button-toggle-confirm-password" {...inputProps("confirmPassword")} />
      </FormField>
      <Button type="submit" disabled={accept.isPending} data-testid="button-accept-invitation">
        {accept.isPending ? "Joining..." : "Join organisation"}
      </Button>
    </form>
  );
}

import { type ChangePasswordRequest, changePasswordRequestSchema } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { errorMessageFrom, fieldIssuesFrom } from "@/lib/api-client";
import { useChangePassword } from "../api/account-requests";

type Field = keyof ChangePasswordRequest;
const FIELDS: { name: Field; label: string; autoComplete: string; testId: string }[] = [
  { name: "currentPassword", label: "Current Password", autoComplete: "current-password", testId: "input-current-password" },
  { name: "newPassword", label: "New Password", autoComplete: "new-password", testId: "input-new-password" },
  { name: "confirmPassword", label: "Confirm New Password", autoComplete: "new-password", testId: "input-confirm-password" },
];

/**
 * Change password (issue 16 "Accounts of users"): current, new and confirmation, checked by the
 * contract's rules; the server's "Current password is incorrect" shows under its field. On
 * success the user's other sessions are signed out, and the toast says so.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ChangePasswordRequest>({
    resolver: zodResolver(changePasswordRequestSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => {
        reset();
        toastSuccess("Password changed. Your other sessions were signed out.");
      },
      onError: (error) => {
        const issues = fieldIssuesFrom(error).filter((i): i is { path: Field; message: string } => FIELDS.some((f) => f.name === i.path));
        for (const issue of issues) setError(issue.path, { message: issue.message });
        if (issues.length === 0) toastError(errorMessageFrom(error, "Failed to change password"));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-md flex-col gap-4" data-testid="form-change-password">
      <h3 className="font-medium">Change password</h3>
      {FIELDS.map((f) => (
        <FormField key={f.name} id={f.name} label={f.label} error={errors[f.name]?.message}>
          <PasswordInput
            id={f.name}
            autoComplete={f.autoComplete}
            aria-invalid={errors[f.name] ? true : undefined}
            aria-describedby={errors[f.name] ? fieldErrorId(f.name) : undefined}
            data-testid={f.testId}
            toggleTestId={`button-toggle-${f.testId.replace("input-", "")}`}
            {...register(f.name)}
          />
        </FormField>
      ))}
      <Button type="submit" className="self-start" disabled={change.isPending} data-testid="button-change-password">
        {change.isPending ? "Saving..." : "Change password"}
      </Button>
    </form>
  );
}

import type { LoginResponse } from "#contract";
import { type FormEvent, useState } from "react";
import { FormField, fieldErrorId } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom, errorStatus, fieldIssuesFrom } from "@/lib/api-client";
import { useLoginTwoFactor } from "../api/use-login";

/**
 * Second step of the sign-in when the user has two-factor on (issue 16): the 6-digit
 * "Authentication code" from the authenticator app, or one recovery code. A 401 means the
 * challenge expired or ran out of attempts: `onRestart` goes back to the password step.
 */
export function TwoFactorStep({ challenge, onSuccess, onRestart }: { challenge: string; onSuccess: (session: LoginResponse) => void; onRestart: () => void }) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>();
  const verify = useLoginTwoFactor();
  const id = useRecovery ? "recoveryCode" : "code";

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const entered = value.trim();
    if (!useRecovery && !/^\d{6}$/.test(entered)) return setError("Enter the 6-digit code from your authenticator app");
    if (useRecovery && !entered) return setError("Enter a recovery code");
    setError(undefined);
    verify.mutate(useRecovery ? { challenge, recoveryCode: entered } : { challenge, code: entered }, {
      onSuccess,
      onError: (err) => {
        if (errorStatus(err) === 401) {
          toastError(errorMessageFrom(err, "Your sign-in has expired. Please sign in again."));
          onRestart();
          return;
        }
        const issue = fieldIssuesFrom(err)[0];
        if (issue) setError(issue.message);
        else toastError(errorMessageFrom(err, "Login failed. Please check your credentials."));
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="form-two-factor">
      <FormField
        id={id}
        label={useRecovery ? "Recovery code" : "Authentication code"}
        error={error}
        hint={useRecovery ? "One of the recovery codes you saved when you turned on two-factor sign-in. Each works once." : "The 6-digit code from your authenticator app."}
      >
        <Input
          id={id}
          key={id}
          autoFocus
          autoComplete="one-time-code"
          inputMode={useRecovery ? "text" : "numeric"}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? fieldErrorId(id) : undefined}
          data-testid={useRecovery ? "input-recovery-code" : "input-two-factor-code"}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </FormField>
      <Button type="submit" disabled={verify.isPending} data-testid="button-verify-two-factor">
        {verify.isPending ? "Verifying..." : "Verify"}
      </Button>
      <Button
        type="button"
        variant="link"
        className="self-start px-0"
        data-testid="button-toggle-recovery"
        onClick={() => {
          setUseRecovery((r) => !r);
          setValue("");
          setError(undefined);
        }}
      >
        {useRecovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
      </Button>
    </form>
  );
}

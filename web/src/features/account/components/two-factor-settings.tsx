import type { TwoFactorSetupResponse } from "#contract";
import { ShieldCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { errorMessageFrom, fieldIssuesFrom } from "@/lib/api-client";
import { useMe, useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from "../api/account-requests";

const CODE_HINT = "Enter the 6-digit code from your authenticator app";

/** The message of a field issue named `path` in a failed call, or null. */
function issueOf(error: unknown, path: string): string | null {
  return fieldIssuesFrom(error).find((i) => i.path === path)?.message ?? null;
}

/**
 * Two-factor sign-in (issue 16 "Accounts of users"): off → "Set up two-factor sign-in" shows the
 * QR code and the secret for an authenticator app, and a first code turns it on; the 10 recovery
 * codes are then shown once. On → "Turn off two-factor" asks for the password and a current code.
 */
export function TwoFactorSettings() {
  const me = useMe();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (me.isLoading) return <Spinner />;
  if (!me.data) return <p className="text-sm text-muted-foreground">Failed to load your account.</p>;

  return (
    <section className="flex max-w-md flex-col gap-4" data-testid="section-two-factor">
      <h3 className="font-medium">Two-factor sign-in</h3>
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : me.data.user.twoFactorEnabled ? (
        <DisableTwoFactor />
      ) : (
        <EnableTwoFactor onEnabled={setRecoveryCodes} />
      )}
    </section>
  );
}

function EnableTwoFactor({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const [pending, setPending] = useState<TwoFactorSetupResponse | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();

  if (!pending) {
    return (
      <>
        <p className="text-sm text-muted-foreground" data-testid="text-two-factor-status">
          Two-factor sign-in is off. Turn it on to ask for a code from an authenticator app after your password.
        </p>
        <Button
          className="self-start"
          disabled={setup.isPending}
          data-testid="button-setup-two-factor"
          onClick={() =>
            setup.mutate(undefined, {
              onSuccess: setPending,
              onError: (err) => toastError(errorMessageFrom(err, "Failed to start two-factor setup")),
            })
          }
        >
          {setup.isPending ? "Preparing..." : "Set up two-factor sign-in"}
        </Button>
      </>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setError(CODE_HINT);
    setError(undefined);
    enable.mutate(code.trim(), {
      onSuccess: (result) => {
        toastSuccess("Two-factor sign-in is on.");
        onEnabled(result.recoveryCodes);
      },
      onError: (err) => {
        const message = issueOf(err, "code");
        if (message) setError(message);
        else toastError(errorMessageFrom(err, "Failed to turn on two-factor sign-in"));
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="form-enable-two-factor">
      <p className="text-sm">Scan this QR code with your authenticator app (or enter the key below), then type the code it shows.</p>
      <img src={pending.qrDataUrl} alt="QR code to add CopyBridge to your authenticator app" width={220} height={220} className="rounded-md border bg-white" data-testid="img-two-factor-qr" />
      <p className="text-sm">
        Key: <code className="font-mono break-all" data-testid="text-two-factor-secret">{pending.secret}</code>
      </p>
      <FormField id="enable-code" label="Authentication code" error={error}>
        <Input
          id="enable-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? fieldErrorId("enable-code") : undefined}
          data-testid="input-enable-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="self-start" disabled={enable.isPending} data-testid="button-enable-two-factor">
        {enable.isPending ? "Turning on..." : "Turn on two-factor sign-in"}
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-3" data-testid="panel-recovery-codes">
      <p role="status" className="flex items-start gap-2 text-sm">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
        Save these recovery codes somewhere safe. Each one signs you in once without your authenticator app. They will not be shown again.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-md border bg-muted/50 p-3 font-mono text-sm" data-testid="list-recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button className="self-start" onClick={onDone} data-testid="button-recovery-codes-saved">
        I have saved these codes
      </Button>
    </div>
  );
}

function DisableTwoFactor() {
  const disable = useTwoFactorDisable();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = { password: password ? undefined : "Password is required", code: /^\d{6}$/.test(code.trim()) ? undefined : CODE_HINT };
    setErrors(next);
    if (next.password || next.code) return;
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => toastSuccess("Two-factor sign-in is off."),
        onError: (err) => {
          const found = { password: issueOf(err, "password") ?? undefined, code: issueOf(err, "code") ?? undefined };
          setErrors(found);
          if (!found.password && !found.code) toastError(errorMessageFrom(err, "Failed to turn off two-factor sign-in"));
        },
      },
    );
  };

  return (
    <>
      <p className="flex items-center gap-2 text-sm" data-testid="text-two-factor-status">
        <ShieldCheck className="size-4 text-success" aria-hidden="true" />
        Two-factor sign-in is on.
      </p>
      {open ? (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="form-disable-two-factor">
          <FormField id="disable-password" label="Password" error={errors.password}>
            <PasswordInput id="disable-password" autoComplete="current-password" data-testid="input-disable-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </FormField>
          <FormField id="disable-code" label="Authentication code" error={errors.code}>
            <Input id="disable-code" autoComplete="one-time-code" inputMode="numeric" data-testid="input-disable-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" variant="destructive" disabled={disable.isPending} data-testid="button-disable-two-factor">
              {disable.isPending ? "Turning off..." : "Turn off two-factor sign-in"}
            </Button>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button variant="outline" className="self-start" onClick={() => setOpen(true)} data-testid="button-open-disable-two-factor">
          Turn off two-factor sign-in
        </Button>
      )}
    </>
  );
}

import type { CreateApiKeyResponse } from "#contract";
import { TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "./copy-button";

function SecretRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <div className="flex items-center gap-1 rounded-md border bg-background/60 py-1 pr-1 pl-3">
        <code className="min-w-0 flex-1 font-mono text-sm break-all" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} testId={`button-copy-${testId.replace(/^text-/, "")}`} />
      </div>
    </div>
  );
}

/**
 * §2 /bridge green panel after a creation: the API key and its secret, shown once, with the
 * warning 'Copy these now - they won't be shown again!' and a Dismiss button (§4: shown until
 * dismissed).
 */
export function CredentialsPanel({ created, onDismiss }: { created: CreateApiKeyResponse; onDismiss: () => void }) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-success/50 bg-success/10 p-4" role="status" data-testid="panel-credentials">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="font-semibold text-success">API key “{created.name}” created</p>
          <p className="mt-1 flex items-center gap-1.5 text-sm font-medium">
            <TriangleAlert className="size-4 shrink-0 text-warning" aria-hidden="true" />
            Copy these now - they won't be shown again!
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={onDismiss} data-testid="button-dismiss-credentials">
          Dismiss
        </Button>
      </div>
      <SecretRow label="API Key" value={created.apiKey} testId="text-api-key" />
      <SecretRow label="Secret" value={created.secret} testId="text-api-secret" />
    </div>
  );
}

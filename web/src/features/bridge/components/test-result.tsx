import { cn } from "@/lib/utils";
import type { TestResult } from "../api/send-test-request";

/** What the last test produced: an HTTP answer, or why nothing was answered. */
export type TestOutcome = { kind: "answered"; result: TestResult } | { kind: "failed"; error: string };

/**
 * Testing tab result: HTTP status and the JSON response, plus the exact request sent (headers
 * and signed body) for comparison with an EA's own signing.
 */
export function TestResultView({ outcome }: { outcome: TestOutcome | null }) {
  if (!outcome) {
    return (
      <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground" data-testid="text-test-status">
        No request sent yet.
      </p>
    );
  }
  if (outcome.kind === "failed") {
    return (
      <div className="flex flex-col gap-2">
        <p className="text-sm font-semibold text-destructive" data-testid="text-test-status">
          Not answered
        </p>
        <pre className="rounded-md border bg-muted/50 p-3 font-mono text-xs whitespace-pre-wrap break-all" data-testid="text-test-response">
          {outcome.error}
        </pre>
      </div>
    );
  }
  const { result } = outcome;
  const ok = result.status >= 200 && result.status < 300;
  return (
    <div className="flex flex-col gap-2">
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-mono text-muted-foreground">
          {result.method} {result.path}
        </span>
        <span className={cn("font-semibold tabular", ok ? "text-success" : "text-destructive")} data-testid="text-test-status" data-status={result.status}>
          {result.status} {result.statusText}
        </span>
      </p>
      <pre className="max-h-80 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs whitespace-pre-wrap break-all" data-testid="text-test-response">
        {result.response || "(empty response)"}
      </pre>
      <details className="rounded-md border p-3 text-xs">
        <summary className="cursor-pointer font-medium">Request sent</summary>
        <pre className="mt-2 font-mono whitespace-pre-wrap break-all text-muted-foreground" data-testid="text-test-request">
          {Object.entries(result.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join("\n")}
          {"\n\n"}
          {result.body}
        </pre>
      </details>
    </div>
  );
}

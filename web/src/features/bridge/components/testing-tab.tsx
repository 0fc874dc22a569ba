import type { CopyPreview } from "#contract";
import { Eye, HeartPulse, RotateCcw, Send } from "lucide-react";
import { useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { FormField } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { buttonVariants } from "@/components/ui/button";
import { toastError } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import { liveSignalSummary, orderLabel, previewSignal, receivingSlaves } from "../api/copy-preview";
import { type TestCredentials, sendTestRequest } from "../api/send-test-request";
import { type TestRequest, type TestSignalType, buildHeartbeatRequest, buildSignalRequest, createSignalRequestCache, sampleSignalText } from "../api/test-payload";
import { type PreviewOutcome, PreviewTable } from "./preview-table";
import { type TestOutcome, TestResultView } from "./test-result";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { usePermission } from "@/lib/permissions";

type TestKind = "HEARTBEAT" | TestSignalType;

/** Preview (default): signal buttons only ask the server what would happen. Live: they send, after a confirmation. */
export type TestMode = "preview" | "live";

const MODES: readonly { mode: TestMode; label: string; text: string }[] = [
  { mode: "preview", label: "Preview (no orders)", text: "Preview — nothing is sent to any terminal" },
  { mode: "live", label: "Live", text: "Live — sends a real signal" },
];

/** A previewed signal waiting for the Live confirmation: the exact request and its preview. */
interface PendingLive {
  kind: TestSignalType;
  request: TestRequest;
  preview: CopyPreview;
}

const previewRefused = (error: unknown): PreviewOutcome => ({
  kind: "refused",
  message: errorMessageFrom(error, error instanceof Error ? error.message : "The preview failed"),
});

const BUTTONS: readonly { kind: TestKind; label: string; testId: string }[] = [
  { kind: "HEARTBEAT", label: "Send Heartbeat", testId: "button-test-heartbeat" },
  { kind: "OPEN", label: "Test Signal Open", testId: "button-test-open" },
  { kind: "MODIFY", label: "Test Signal Modify", testId: "button-test-modify" },
  { kind: "CLOSE", label: "Test Signal Close", testId: "button-test-close" },
];

const nowSeconds = () => Math.floor(Date.now() / 1000);
const freshSample = () => sampleSignalText(nowSeconds(), 90_000_000 + Math.floor(Math.random() * 9_000_000));

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** §8 bridge test failure (invalid payload, network failure). */
const testFailed = () => toastError("Please check your payload and try again.", "Test failed");

/**
 * §2 /bridge Testing tab: a 15-row JSON editor with the §3 sample signal, a key id and secret
 * (memory only), and heartbeat / open / modify / close buttons. A mode switch (issue 13) decides
 * what the signal buttons do: Preview (default) asks POST /api/copy/preview and shows each slave's
 * verdict — nothing is sent to any terminal; Live previews, asks for a confirmation naming the
 * slaves that would trade, then sends the really signed request with the preview's token
 * (`x-cb-confirm`: the server refuses it if the preview changed meanwhile). The heartbeat always
 * sends. §5: a payload that is not JSON is never sent.
 */
export function TestingTab({ credentials, onCredentialsChange }: { credentials: TestCredentials; onCredentialsChange: (c: TestCredentials) => void }) {
  const [editor, setEditor] = useState(freshSample);
  const [buildSignal] = useState(createSignalRequestCache);
  const [pending, setPending] = useState<TestKind | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [mode, setMode] = useState<TestMode>("preview");
  const [previewOutcome, setPreviewOutcome] = useState<PreviewOutcome | null>(null);
  const [live, setLive] = useState<PendingLive | null>(null);
  const valid = isJson(editor);
  // Signal buttons preview first (POST /api/copy/preview: copy.operate); the heartbeat is signed with the key alone.
  const operate = usePermission("copy.operate");

  const send = async (kind: TestKind, request: TestRequest, extraHeaders: Record<string, string> = {}) => {
    setPending(kind);
    try {
      setOutcome({ kind: "answered", result: await sendTestRequest(request, credentials, extraHeaders) });
    } catch (error) {
      console.error("Bridge test failed", error);
      setOutcome({ kind: "failed", error: error instanceof Error ? error.message : String(error) });
      testFailed();
    } finally {
      setPending(null);
    }
  };

  /** Asks the server what `request` would do; null (and the refusal shown) when it refuses. */
  const preview = async (kind: TestSignalType, request: TestRequest): Promise<CopyPreview | null> => {
    setPending(kind);
    try {
      const result = await previewSignal(request.body);
      setPreviewOutcome({ kind: "preview", preview: result });
      return result;
    } catch (error) {
      setPreviewOutcome(previewRefused(error));
      return null;
    } finally {
      setPending(null);
    }
  };

  const run = async (kind: TestKind) => {
    if (kind === "HEARTBEAT") {
      const request = buildHeartbeatRequest(editor);
      if (!request) testFailed();
      else await send(kind, request);
      return;
    }
    // Preview: a fresh body each press (ts = now), kept out of the resend cache: nothing is sent.
    // Live: the cached body, so the preview is of the exact bytes that will be signed and sent.
    const request = mode === "preview" ? buildSignalRequest(editor, kind, nowSeconds()) : buildSignal(editor, kind, nowSeconds());
    if (!request) {
      testFailed();
      return;
    }
    const result = await preview(kind, request);
    if (mode === "live" && result) setLive({ kind, request, preview: result });
  };

  const confirmLive = () => {
    if (!live) return;
    const { kind, request, preview: confirmed } = live;
    setLive(null);
    void send(kind, request, { "x-cb-confirm": confirmed.confirmToken });
  };

  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Test Payload</CardTitle>
          <CardDescription>Requests are signed in this browser and sent to this server; the secret stays in memory only.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <div role="radiogroup" aria-label="Test mode" className="inline-flex w-fit rounded-md border p-1" data-testid="switch-test-mode">
              {MODES.map((m) => (
                <button
                  key={m.mode}
                  type="button"
                  role="radio"
                  aria-checked={mode === m.mode}
                  onClick={() => {
                    setMode(m.mode);
                    setPreviewOutcome(null);
                  }}
                  className={cn(
                    "rounded px-3 py-1 text-sm font-medium transition-colors",
                    mode === m.mode ? (m.mode === "live" ? "bg-destructive text-destructive-foreground" : "bg-primary text-primary-foreground") : "text-muted-foreground hover:text-foreground",
                  )}
                  data-testid={`radio-test-mode-${m.mode}`}
                >
                  {m.label}
                </button>
              ))}
            </div>
            <p className={cn("text-sm font-medium", mode === "live" ? "text-destructive" : "text-muted-foreground")} data-testid="text-test-mode" data-mode={mode}>
              {MODES.find((m) => m.mode === mode)?.text}
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="test-key" label="API Key">
              <Input
                id="test-key"
                value={credentials.apiKey}
                onChange={(e) => onCredentialsChange({ ...credentials, apiKey: e.target.value })}
                placeholder="cbk_..."
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                data-testid="input-test-key"
              />
            </FormField>
            <FormField id="test-secret" label="Secret">
              <PasswordInput
                id="test-secret"
                value={credentials.secret}
                onChange={(e) => onCredentialsChange({ ...credentials, secret: e.target.value })}
                placeholder="64 hex characters"
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                data-testid="input-test-secret"
                toggleTestId="button-toggle-test-secret"
              />
            </FormField>
          </div>
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="test-payload">Signal payload (JSON)</Label>
              <Button variant="ghost" size="sm" onClick={() => setEditor(freshSample())} data-testid="button-reset-payload">
                <RotateCcw />
                Reset sample
              </Button>
            </div>
            <Textarea
              id="test-payload"
              rows={15}
              value={editor}
              onChange={(e) => setEditor(e.target.value)}
              spellCheck={false}
              aria-invalid={valid ? undefined : true}
              className="font-mono text-xs"
              data-testid="textarea-test-payload"
            />
            <p className={valid ? "text-xs text-muted-foreground" : "text-xs text-destructive"}>
              {valid
                ? "Each signal button sends this JSON with its own type, ts set to now and the idempotencyKey suffixed with -open, -modify or -close. The heartbeat uses master.login and master.server."
                : "Invalid JSON: nothing will be sent."}
            </p>
          </div>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4 2xl:grid-cols-2">
            {BUTTONS.map(({ kind, label, testId }) => (
              <PermissionTooltip key={kind} reason={kind === "HEARTBEAT" ? null : operate.reason} className="grid rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                <Button variant={kind === "HEARTBEAT" ? "outline" : "secondary"} disabled={pending !== null || (kind !== "HEARTBEAT" && !operate.allowed)} onClick={() => void run(kind)} data-testid={testId}>
                  {kind === "HEARTBEAT" ? <HeartPulse /> : mode === "preview" ? <Eye /> : <Send />}
                  {pending === kind ? (kind !== "HEARTBEAT" && mode === "preview" ? "Previewing..." : "Sending...") : label}
                </Button>
              </PermissionTooltip>
            ))}
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Response</CardTitle>
          <CardDescription>HTTP status and body of the last test request.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {previewOutcome ? <PreviewTable outcome={previewOutcome} /> : null}
          <TestResultView outcome={outcome} />
        </CardContent>
      </Card>
      <AlertDialog open={live !== null} onOpenChange={(open) => (open ? undefined : setLive(null))}>
        <AlertDialogContent data-testid="dialog-confirm-live-signal">
          <AlertDialogHeader>
            <AlertDialogTitle>Send a real signal?</AlertDialogTitle>
            <AlertDialogDescription data-testid="text-live-signal-summary">{live ? liveSignalSummary(live.preview) : ""}</AlertDialogDescription>
          </AlertDialogHeader>
          {live && receivingSlaves(live.preview).length > 0 ? (
            <ul className="flex flex-col gap-1 text-sm" data-testid="list-live-signal-slaves">
              {receivingSlaves(live.preview).map((s) => (
                <li key={s.slaveAccountId} className="flex justify-between gap-4">
                  <span className="font-medium">{s.name}</span>
                  <span className="font-mono text-xs">{orderLabel(s.order)}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="text-xs text-muted-foreground">Orders are placed on live trading accounts. Copies the preview shows as skipped or rejected are not sent.</p>
          <AlertDialogFooter>
            <AlertDialogCancel data-testid="button-cancel-live-signal">Cancel</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={confirmLive} data-testid="button-confirm-live-signal">
              Send real signal
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

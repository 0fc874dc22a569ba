import { HeartPulse, RotateCcw, Send } from "lucide-react";
import { useState } from "react";
import { FormField } from "@/components/form-field";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toastError } from "@/components/ui/use-toast";
import { type TestCredentials, sendTestRequest } from "../api/send-test-request";
import { type TestRequest, type TestSignalType, buildHeartbeatRequest, createSignalRequestCache, sampleSignalText } from "../api/test-payload";
import { type TestOutcome, TestResultView } from "./test-result";

type TestKind = "HEARTBEAT" | TestSignalType;

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
 * (memory only), and heartbeat / open / modify / close buttons sending really signed requests
 * to this server. §5: a payload that is not JSON is never sent.
 */
export function TestingTab({ credentials, onCredentialsChange }: { credentials: TestCredentials; onCredentialsChange: (c: TestCredentials) => void }) {
  const [editor, setEditor] = useState(freshSample);
  const [buildSignal] = useState(createSignalRequestCache);
  const [pending, setPending] = useState<TestKind | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const valid = isJson(editor);

  const run = async (kind: TestKind) => {
    const request: TestRequest | null = kind === "HEARTBEAT" ? buildHeartbeatRequest(editor) : buildSignal(editor, kind, nowSeconds());
    if (!request) {
      testFailed();
      return;
    }
    setPending(kind);
    try {
      setOutcome({ kind: "answered", result: await sendTestRequest(request, credentials) });
    } catch (error) {
      console.error("Bridge test failed", error);
      setOutcome({ kind: "failed", error: error instanceof Error ? error.message : String(error) });
      testFailed();
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Test Payload</CardTitle>
          <CardDescription>Requests are signed in this browser and sent to this server; the secret stays in memory only.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
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
              <Button key={kind} variant={kind === "HEARTBEAT" ? "outline" : "secondary"} disabled={pending !== null} onClick={() => void run(kind)} data-testid={testId}>
                {kind === "HEARTBEAT" ? <HeartPulse /> : <Send />}
                {pending === kind ? "Sending..." : label}
              </Button>
            ))}
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Response</CardTitle>
          <CardDescription>HTTP status and body of the last test request.</CardDescription>
        </CardHeader>
        <CardContent>
          <TestResultView outcome={outcome} />
        </CardContent>
      </Card>
    </div>
  );
}

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ApiReference } from "./api-reference";
import { CodeBlock, DocSection, DocTable } from "./doc-blocks";

/** Worked example of docs/bridge-protocol.md §2 (verified with openssl and the unit test). */
const EXAMPLE = {
  secret: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  method: "POST",
  path: "/v1/master/heartbeat",
  ts: "1732200000",
  body: '{"login":"50001234","server":"ICMarkets-Demo","balance":"10000.00","equity":"10012.50","currency":"USD"}',
  signature: "9d866e3251d98d1db7c42ff0111afdd9a72cccd4d0246291822d0f0a78e8970b",
};

const HEADERS = [
  ["x-api-key", "The key's public id (cbk_…), shown in the API Keys list."],
  ["x-ts", "Current unix time in whole seconds; must be within ±60 s of the server clock."],
  ["x-signature", "Lowercase hex HMAC-SHA256 of the string to sign, keyed with the secret."],
] as const;

const ERRORS = [
  ["400 validation_failed", "Body invalid; issues lists {path, message} per field."],
  ["401 missing_headers", "x-api-key, x-ts or x-signature absent."],
  ["401 unknown_key", "No such key (or deleted)."],
  ["401 key_disabled", "The key is disabled."],
  ["401 timestamp_out_of_window", "x-ts is not an integer within ±60 s of server time."],
  ["401 bad_signature", "Signature malformed or wrong."],
  ["403 forbidden_scope", "The key's scope does not reach this endpoint, or the account is not the key's."],
  ["404 not_found", "Unknown account, order or master ticket (a master heartbeat needs a master account)."],
  ["409 replayed", "The same signed request was already used."],
  ["409 in_flight", "A request with this idempotencyKey is still being processed; retry shortly."],
  ["422 idempotency_mismatch", "idempotencyKey reused with a different body."],
] as const;

function shellSnippet(origin: string): string {
  return `API_KEY='cbk_...'            # from the API Keys tab
SECRET='...64 hex chars...'  # shown once at creation
URL='${origin}'
PATH_='/v1/master/heartbeat'
BODY='${EXAMPLE.body}'
TS=$(date +%s)
SIG=$(printf '%s' "POST\${PATH_}\${TS}\${BODY}" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')
curl -sS -X POST "$URL$PATH_" \\
  -H 'content-type: application/json' \\
  -H "x-api-key: $API_KEY" -H "x-ts: $TS" -H "x-signature: $SIG" \\
  --data-raw "$BODY"`;
}

/**
 * §2 /bridge Documentation tab: the §7 HMAC-SHA256 scheme with a worked example and a shell recipe,
 * then the API reference generated from /api/openapi.json (issue 16).
 */
export function DocumentationTab() {
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>HMAC-SHA256 Authentication</CardTitle>
          <CardDescription>How a terminal signs every request to the bridge. Use HTTPS in production.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6" data-testid="section-documentation">
          <DocSection title="1. Headers">
            <p>Send these three headers with every request (JSON bodies, content-type: application/json):</p>
            <DocTable head={["Header", "Value"]} rows={HEADERS} />
          </DocSection>
          <DocSection title="2. String to sign">
            <CodeBlock code="METHOD + PATH + TS + BODY" label="string to sign" />
            <ul className="list-disc space-y-1 pl-5">
              <li>METHOD in upper case (POST, GET); PATH exactly as sent, query string included.</li>
              <li>TS is the x-ts header value, byte for byte.</li>
              <li>BODY is the exact body sent (empty for a GET): sign what you send — the server never re-serialises JSON.</li>
              <li>The HMAC key is the secret string's UTF-8 bytes (as openssl -hmac uses it), not its hex-decoded value.</li>
            </ul>
          </DocSection>
          <DocSection title="3. Time window, replays and idempotency">
            <ul className="list-disc space-y-1 pl-5">
              <li>The server accepts |server time − x-ts| ≤ 60 s in both directions; heartbeat answers carry serverTime to detect drift.</li>
              <li>A signed request is valid once: the same x-api-key and x-signature again is refused with 409 replayed.</li>
              <li>Signal endpoints are idempotent by idempotencyKey (kept 24 h): the same key and body answer the first response again; the same key with a different body is 422 idempotency_mismatch.</li>
              <li>Retry a failed transport with the same body and idempotencyKey, re-signed with a fresh x-ts. Requests that may repeat within one second with the same body should carry a nonce field.</li>
            </ul>
          </DocSection>
          <DocSection title="4. Errors">
            <p>Every error is JSON: {"{"}"error": "…", "code": "…", "issues": […]{"}"}; nothing is written on a rejected request.</p>
            <DocTable head={["Status and code", "Meaning"]} rows={ERRORS} />
          </DocSection>
          <DocSection title="5. Worked example">
            <DocTable
              head={["Input", "Value"]}
              rows={[
                ["secret", <code key="s" className="font-mono text-xs break-all">{EXAMPLE.secret}</code>],
                ["method", EXAMPLE.method],
                ["path", EXAMPLE.path],
                ["ts", EXAMPLE.ts],
                ["body", <code key="b" className="font-mono text-xs break-all">{EXAMPLE.body}</code>],
              ]}
            />
            <p>String to sign:</p>
            <CodeBlock code={`${EXAMPLE.method}${EXAMPLE.path}${EXAMPLE.ts}${EXAMPLE.body}`} label="example string to sign" />
            <p>x-signature:</p>
            <CodeBlock code={EXAMPLE.signature} label="example signature" testId="text-example-signature" />
          </DocSection>
          <DocSection title="6. From a shell (openssl + curl)">
            <p>printf '%s' matters: echo would add a newline that is not part of the body.</p>
            <CodeBlock code={shellSnippet(window.location.origin)} label="shell snippet" testId="code-shell-snippet" />
          </DocSection>
        </CardContent>
      </Card>
      <ApiReference />
    </div>
  );
}

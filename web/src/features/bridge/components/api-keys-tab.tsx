import type { CreateApiKeyResponse } from "#contract";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ApiKeyForm } from "./api-key-form";
import { ApiKeyList } from "./api-key-list";
import { CredentialsPanel } from "./credentials-panel";

/**
 * §2 /bridge API Keys tab: creation form, the one-time credentials panel (§4: shown until
 * dismissed, so the page holds it across tab switches) and the key list.
 */
export function ApiKeysTab({
  created,
  onCreated,
  onDismiss,
}: {
  created: CreateApiKeyResponse | null;
  onCreated: (created: CreateApiKeyResponse) => void;
  onDismiss: () => void;
}) {
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Create API Key</CardTitle>
          <CardDescription>Each MetaTrader terminal signs its requests with its own key and secret.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <ApiKeyForm onCreated={onCreated} />
          {created ? <CredentialsPanel created={created} onDismiss={onDismiss} /> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>API Keys</CardTitle>
          <CardDescription>Disable a key to cut a terminal off at once; delete it to revoke it for good.</CardDescription>
        </CardHeader>
        <CardContent>
          <ApiKeyList />
        </CardContent>
      </Card>
    </div>
  );
}

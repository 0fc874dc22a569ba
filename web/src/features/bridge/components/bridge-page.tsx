import type { CreateApiKeyResponse } from "#contract";
import { BookOpen, FlaskConical, KeyRound, Network } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { TestCredentials } from "../api/send-test-request";
import { ApiKeysTab } from "./api-keys-tab";
import { BridgeStatCards } from "./bridge-stat-cards";
import { DocumentationTab } from "./documentation-tab";
import { EndpointsTab } from "./endpoints-tab";
import { TestingTab } from "./testing-tab";

/**
 * §2 /bridge Bridge Server: 'Active' badge, four stat cards polled every 2 s, and the tabs API
 * Keys (default), Endpoints, Testing and Documentation. A newly created MASTER key prefills the
 * Testing tab's credentials (memory only); the Testing tab stays mounted so its editor survives
 * tab switches.
 */
export function BridgePage() {
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  const [credentials, setCredentials] = useState<TestCredentials>({ apiKey: "", secret: "" });

  const onCreated = (response: CreateApiKeyResponse) => {
    setCreated(response);
    if (response.scope === "MASTER") setCredentials({ apiKey: response.apiKey, secret: response.secret });
  };

  return (
    <div className="flex flex-col gap-6" data-testid="page-bridge-server">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            Bridge Server
            <Badge variant="success" className="text-sm" data-testid="badge-active">
              <span className="size-1.5 rounded-full bg-current" aria-hidden="true" />
              Active
            </Badge>
          </span>
        }
        description="Manage API keys, endpoints and signed terminal connectivity"
      />
      <BridgeStatCards />
      <Tabs defaultValue="api-keys">
        <TabsList>
          <TabsTrigger value="api-keys" data-testid="tab-api-keys">
            <KeyRound className="size-4" /> API Keys
          </TabsTrigger>
          <TabsTrigger value="endpoints" data-testid="tab-endpoints">
            <Network className="size-4" /> Endpoints
          </TabsTrigger>
          <TabsTrigger value="testing" data-testid="tab-testing">
            <FlaskConical className="size-4" /> Testing
          </TabsTrigger>
          <TabsTrigger value="documentation" data-testid="tab-documentation">
            <BookOpen className="size-4" /> Documentation
          </TabsTrigger>
        </TabsList>
        <TabsContent value="api-keys">
          <ApiKeysTab created={created} onCreated={onCreated} onDismiss={() => setCreated(null)} />
        </TabsContent>
        <TabsContent value="endpoints">
          <EndpointsTab />
        </TabsContent>
        <TabsContent value="testing" forceMount className="data-[state=inactive]:hidden">
          <TestingTab credentials={credentials} onCredentialsChange={setCredentials} />
        </TabsContent>
        <TabsContent value="documentation">
          <DocumentationTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}

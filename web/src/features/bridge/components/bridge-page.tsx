import type { CreateApiKeyResponse } from "#contract";
import { BookOpen, FlaskConical, KeyRound, Network, Plug } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { TestCredentials } from "../api/send-test-request";
import { ApiKeysTab } from "./api-keys-tab";
import { BridgeStatCards } from "./bridge-stat-cards";
import { ConnectTerminalTab } from "./connect-terminal-tab";
import { DocumentationTab } from "./documentation-tab";
import { EndpointsTab } from "./endpoints-tab";
import { TestingTab } from "./testing-tab";

const TABS = ["api-keys", "endpoints", "testing", "documentation", "connect"] as const;
type BridgeTab = (typeof TABS)[number];

/** The tab a `?tab=` value names, or null (absent or unknown). */
function linkedTab(value: string | null): BridgeTab | null {
  return TABS.find((tab) => tab === value) ?? null;
}

/**
 * §2 /bridge Bridge Server: 'Active' badge, four stat cards polled every 2 s, and the tabs API
 * Keys (default), Endpoints, Testing and Documentation, plus issue 10's fifth tab "Connect a
 * terminal" (the spec is the floor). `?tab=connect` (any tab's value) opens that tab; choosing a
 * tab drops the parameter, so a reload of plain /bridge shows the default again. A newly created
 * MASTER key prefills the Testing tab's credentials (memory only); the Testing tab stays mounted
 * so its editor survives tab switches.
 */
export function BridgePage() {
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  const [credentials, setCredentials] = useState<TestCredentials>({ apiKey: "", secret: "" });
  const [params, setParams] = useSearchParams();
  const linked = linkedTab(params.get("tab"));
  const [tab, setTab] = useState<BridgeTab>(linked ?? "api-keys");
  // A deep link followed while the page is open (e.g. from another screen's link) selects its tab.
  const [seenLink, setSeenLink] = useState(linked);
  if (linked !== seenLink) {
    setSeenLink(linked);
    if (linked) setTab(linked);
  }

  // Keep the selected tab in sight in the row that scrolls sideways on phones (e.g. after a deep link).
  const tabList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!list || !active) return;
    const row = list.getBoundingClientRect();
    const item = active.getBoundingClientRect();
    if (item.left < row.left) list.scrollLeft -= row.left - item.left + 4;
    else if (item.right > row.right) list.scrollLeft += item.right - row.right + 4;
  }, [tab]);

  const selectTab = (value: string) => {
    setTab(linkedTab(value) ?? "api-keys");
    if (params.has("tab")) {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete("tab");
          return next;
        },
        { replace: true },
      );
    }
  };

  /** Step 2 of Connect a terminal: the API Keys tab with the cursor in the key's name. */
  const openApiKeys = () => {
    selectTab("api-keys");
    requestAnimationFrame(() => document.getElementById("key-name")?.focus());
  };

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
      <Tabs value={tab} onValueChange={selectTab}>
        <TabsList ref={tabList}>
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
          {/* Issue 10's addition to the spec's four tabs. */}
          <TabsTrigger value="connect" data-testid="tab-connect">
            <Plug className="size-4" /> Connect a terminal
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
        <TabsContent value="connect">
          <ConnectTerminalTab onOpenApiKeys={openApiKeys} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

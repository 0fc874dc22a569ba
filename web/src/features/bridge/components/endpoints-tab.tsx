import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BRIDGE_ENDPOINTS } from "../api/bridge-endpoints";

/** §2 /bridge Endpoints tab: read-only list of the signed bridge endpoints with descriptions. */
export function EndpointsTab() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Bridge Endpoints</CardTitle>
        <CardDescription>
          Every request is signed with an API key (see Documentation). Base URL: <code className="font-mono">{window.location.origin}</code>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col divide-y rounded-lg border" data-testid="list-endpoints">
          {BRIDGE_ENDPOINTS.map((endpoint) => (
            <li key={endpoint.path} className="flex flex-col gap-1.5 p-3 sm:flex-row sm:items-start sm:gap-4" data-testid={`endpoint-${endpoint.path}`}>
              <div className="flex shrink-0 items-center gap-2 sm:w-96">
                <Badge variant={endpoint.method === "GET" ? "info" : "success"} className="w-12 justify-center font-mono">
                  {endpoint.method}
                </Badge>
                <code className="font-mono text-sm break-all">{endpoint.path}</code>
              </div>
              <p className="min-w-0 flex-1 text-sm text-muted-foreground">{endpoint.description}</p>
              <Badge variant="outline" className="self-start">
                {endpoint.scope}
              </Badge>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

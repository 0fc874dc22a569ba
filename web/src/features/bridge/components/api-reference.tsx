import { Download } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { errorMessageFrom } from "@/lib/api-client";
import { filterReference, OPENAPI_URL, toReference, useOpenApiDocument, type ReferenceOperation } from "../api/openapi";

const METHOD_VARIANT: Record<string, BadgeVariant> = { GET: "info", POST: "success", PUT: "warning", PATCH: "warning", DELETE: "destructive" };

function OperationItem({ op }: { op: ReferenceOperation }) {
  return (
    <li className="flex flex-col gap-2 p-3" data-testid={`api-operation-${op.method} ${op.path}`}>
      <h4 className="flex flex-wrap items-center gap-2">
        <Badge variant={METHOD_VARIANT[op.method] ?? "outline"} className="w-16 justify-center font-mono">
          {op.method}
        </Badge>
        <code className="font-mono text-sm break-all">{op.path}</code>
      </h4>
      <p className="text-sm text-muted-foreground">{op.description}</p>
      <p className="text-xs text-muted-foreground">
        <span className="font-medium text-foreground">Auth: </span>
        {op.auth.length === 0 ? "none (public)" : op.auth.join(" or ")}
      </p>
      {op.fields.length > 0 ? (
        <div className="overflow-x-auto rounded-md border">
          <table className="w-full text-left text-xs">
            <thead className="bg-muted/50 text-muted-foreground">
              <tr>
                <th className="px-3 py-1.5 font-medium">Name</th>
                <th className="px-3 py-1.5 font-medium">In</th>
                <th className="px-3 py-1.5 font-medium">Type</th>
                <th className="px-3 py-1.5 font-medium">Required</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {op.fields.map((field) => (
                <tr key={`${field.in}:${field.name}`} className="align-top">
                  <td className="px-3 py-1.5 font-mono text-foreground">{field.name}</td>
                  <td className="px-3 py-1.5 text-muted-foreground">{field.in}</td>
                  <td className="px-3 py-1.5 font-mono break-all text-muted-foreground">{field.type}</td>
                  <td className="px-3 py-1.5 text-muted-foreground">{field.required ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Issue 16 "OpenAPI 3.1": the API reference under Bridge Server → Documentation, rendered from
 * GET /api/openapi.json — grouped by tag, method + path + description, auth, parameters and body
 * fields (name, type, required), narrowed by a filter, with a link to download the JSON.
 */
export function ApiReference() {
  const filterId = useId();
  const [filter, setFilter] = useState("");
  const { data, isPending, error } = useOpenApiDocument();
  const groups = useMemo(() => (data ? toReference(data) : []), [data]);
  const shown = useMemo(() => filterReference(groups, filter), [groups, filter]);
  const count = shown.reduce((n, g) => n + g.operations.length, 0);

  return (
    <Card>
      <CardHeader>
        <CardTitle>API reference</CardTitle>
        <CardDescription>
          Every /api and /v1 endpoint, generated from the server's own schemas as OpenAPI {data?.openapi ?? "3.1"}.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4" data-testid="section-api-reference">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex flex-1 flex-col gap-1.5">
            <Label htmlFor={filterId}>Filter endpoints</Label>
            <Input
              id={filterId}
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="e.g. accounts, POST, signal"
              data-testid="input-api-filter"
            />
          </div>
          <a href={OPENAPI_URL} download="copybridge-openapi.json" className={buttonVariants({ variant: "outline" })} data-testid="link-download-openapi">
            <Download className="size-4" aria-hidden="true" /> Download OpenAPI JSON
          </a>
        </div>
        {isPending ? (
          <Spinner label="Loading the API reference" />
        ) : error ? (
          <p className="text-sm text-destructive" role="alert">
            Could not load the API reference: {errorMessageFrom(error, "An unknown error occurred")}
          </p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="text-api-count">
              {count === 1 ? "1 endpoint" : `${count} endpoints`}
            </p>
            {shown.map((group) => (
              <section key={group.tag} className="flex flex-col gap-2" data-testid={`api-group-${group.tag}`}>
                <h3 className="font-semibold">{group.tag}</h3>
                {group.description ? <p className="text-sm text-muted-foreground">{group.description}</p> : null}
                <ul className="flex flex-col divide-y rounded-lg border">
                  {group.operations.map((op) => (
                    <OperationItem key={`${op.method} ${op.path}`} op={op} />
                  ))}
                </ul>
              </section>
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}

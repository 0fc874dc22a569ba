/**
 * GET /api/openapi.json (issue 16 "OpenAPI 3.1") read into what the Documentation tab's API
 * reference shows: operations grouped by tag (in the document's tag order), each with method,
 * path, description, required auth, parameters and request body fields (name, type, required).
 * Only the parts of OpenAPI 3.1 the server generates are read; anything else is shown as "any".
 */
import { useQuery } from "@tanstack/react-query";

export const OPENAPI_URL = "/api/openapi.json";
export const openApiKey = [OPENAPI_URL] as const;

/** A JSON Schema as the server's zod → JSON Schema conversion writes it (the subset read here). */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
}

interface OpenApiOperation {
  description?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The parts of the generated document the reference reads. */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface ReferenceField {
  name: string;
  /** "path", "query", "header", "cookie" for parameters; "body" for request body fields. */
  in: string;
  type: string;
  required: boolean;
}

export interface ReferenceOperation {
  method: string;
  path: string;
  description: string;
  /** Ways to authenticate, any one of which is enough; empty = public. */
  auth: string[];
  fields: ReferenceField[];
}

export interface ReferenceGroup {
  tag: string;
  description: string;
  operations: ReferenceOperation[];
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Names of the document's security schemes, as the reader should understand them. */
const AUTH_LABELS: Record<string, string> = {
  session: "Session (Bearer token)",
  sessionCookie: "Session cookie",
  dashboardKey: "Signed DASHBOARD key (GET only)",
  bridgeSignature: "Signed API key (HMAC-SHA256)",
};

function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.split("/").pop() ?? "";
  return doc.components?.schemas?.[name] ?? schema;
}

/** A short type label of a JSON Schema: "string (uuid)", "array of string", "BUY | SELL", "number | null". */
export function typeLabel(schema: JsonSchema | undefined, doc: OpenApiDocument, depth = 0): string {
  const s = resolve(schema, doc);
  if (!s || depth > 3) return "any";
  if (s.enum) return s.enum.map((v) => String(v)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeLabel(v, doc, depth + 1)))].join(" | ");
  if (s.allOf?.length === 1) return typeLabel(s.allOf[0], doc, depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 0) return s.properties ? "object" : "any";
  return types
    .map((t) => {
      if (t === "array") return `array of ${typeLabel(s.items, doc, depth + 1)}`;
      if (t === "string" && s.format) return `string (${s.format})`;
      return t;
    })
    .join(" | ");
}

/** Top-level fields of a request body; a union's variants are merged (required only when required in every variant). */
function bodyFields(schema: JsonSchema | undefined, doc: OpenApiDocument): ReferenceField[] {
  const s = resolve(schema, doc);
  if (!s) return [];
  const variants = (s.anyOf ?? s.oneOf ?? [s]).map((v) => resolve(v, doc)).filter((v): v is JsonSchema => Boolean(v?.properties));
  const fields = new Map<string, { types: Set<string>; requiredIn: number }>();
  for (const v of variants) {
    for (const [name, prop] of Object.entries(v.properties ?? {})) {
      const field = fields.get(name) ?? { types: new Set<string>(), requiredIn: 0 };
      field.types.add(typeLabel(prop, doc));
      if (v.required?.includes(name)) field.requiredIn += 1;
      fields.set(name, field);
    }
  }
  return [...fields].map(([name, f]) => ({ name, in: "body", type: [...f.types].join(" | "), required: f.requiredIn === variants.length }));
}

function authOf(op: OpenApiOperation): string[] {
  return (op.security ?? []).flatMap((req) => Object.keys(req)).map((name) => AUTH_LABELS[name] ?? name);
}

/** The document as tag groups (the document's tag order first, then any other tag by name), operations in path order. */
export function toReference(doc: OpenApiDocument): ReferenceGroup[] {
  const groups = new Map<string, ReferenceGroup>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, { tag: tag.name, description: tag.description ?? "", operations: [] });
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const params = (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, type: typeLabel(p.schema, doc), required: p.required === true }));
      const operation: ReferenceOperation = {
        method: method.toUpperCase(),
        path,
        description: op.description ?? op.summary ?? "",
        auth: authOf(op),
        fields: [...params, ...bodyFields(op.requestBody?.content?.["application/json"]?.schema, doc)],
      };
      for (const tag of op.tags?.length ? op.tags : ["Other"]) {
        const group = groups.get(tag) ?? { tag, description: "", operations: [] };
        group.operations.push(operation);
        groups.set(tag, group);
      }
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}

/** Groups keeping only operations matching every word of `query` (method, path, description, tag, auth or field names). */
export function filterReference(groups: ReferenceGroup[], query: string): ReferenceGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return groups;
  return groups
    .map((g) => ({
      ...g,
      operations: g.operations.filter((op) => {
        const text = [g.tag, op.method, op.path, op.description, ...op.auth, ...op.fields.map((f) => f.name)].join(" ").toLowerCase();
        return words.every((w) => text.includes(w));
      }),
    }))
    .filter((g) => g.operations.length > 0);
}

/** The generated document (public; it changes only with a server upgrade, so it is read once per page load). */
export function useOpenApiDocument() {
  return useQuery<OpenApiDocument>({ queryKey: openApiKey, staleTime: Infinity });
}

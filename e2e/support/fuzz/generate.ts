/**
 * Seeded request generation: for each route of the table, fast-check draws mutation plans (pure
 * data: replace or delete a field the zod schema declares, add a hostile key, replace the whole
 * body, send raw bytes, an invalid id, hostile query values or broken authentication). A plan is
 * turned into a concrete request only when it is sent, from a fresh valid sample.
 */
import fc from "fast-check";
import { fieldPaths } from "./schema-paths.ts";
import type { Fixtures, FuzzRoute } from "./routes.ts";
import { unknownId } from "./routes.ts";
import { type Json, nastyKey, nastyText, nastyValue } from "./values.ts";

/** Raw bodies that are not (or not only) JSON. */
export type RawKind =
  | "invalid-json"
  | "empty-json"
  | "text-plain"
  | "form-urlencoded"
  | "over-limit"
  | "over-limit-5mb"
  | "deep-raw"
  | "bom"
  | "duplicate-keys"
  | "invalid-utf8"
  | "lone-surrogate-escape"
  | "number-overflow";

export type AuthFault = "none" | "bogus-token" | "bogus-cookie" | "missing-signature" | "bad-signature" | "bad-ts" | "unknown-key";

/** One mutation of a valid request. */
export type Plan =
  | { op: "set"; path: string[]; value: Json }
  | { op: "delete"; path: string[] }
  | { op: "extra"; path: string[]; key: string; value: Json }
  | { op: "root"; value: Json }
  | { op: "raw"; raw: RawKind; junk: string }
  | { op: "id"; value: string }
  | { op: "query"; key: string; value: string; duplicate: boolean }
  | { op: "auth"; fault: AuthFault; value: string }
  | { op: "valid" };

/** A concrete request, ready to send (body as bytes or text). */
export interface FuzzRequest {
  method: string;
  /** Path with the id and the query string, as sent and signed. */
  url: string;
  body?: string | Buffer;
  contentType?: string;
  authFault?: { fault: AuthFault; value: string };
}

const asciiText = nastyText.map((s) => s.replace(/[^\x21-\x7e]/g, "~").slice(0, 200));

function pathsOf(value: Json, prefix: string[] = [], depth = 0): string[][] {
  if (depth > 6 || value === null || typeof value !== "object") return [];
  const out: string[][] = [];
  const entries: [string, Json][] = Array.isArray(value) ? (value.length ? [["0", value[0] as Json]] : []) : Object.entries(value);
  for (const [k, v] of entries) {
    out.push([...prefix, k]);
    out.push(...pathsOf(v, [...prefix, k], depth + 1));
  }
  return out;
}

/** Field paths of a route's body or query: those its schema declares plus those of its sample. */
export function routeFieldPaths(route: FuzzRoute, sample: Json | undefined): string[][] {
  const seen = new Map<string, string[]>();
  const schema = route.body ?? route.query;
  for (const f of schema ? fieldPaths(schema) : []) seen.set(f.path.join("\u0001"), f.path);
  for (const p of sample === undefined ? [] : pathsOf(sample)) seen.set(p.join("\u0001"), p);
  return [...seen.values()];
}

const RAW_KINDS: RawKind[] = [
  "invalid-json", "empty-json", "text-plain", "form-urlencoded", "over-limit", "deep-raw", "bom", "duplicate-keys", "invalid-utf8", "lone-surrogate-escape", "number-overflow",
];

/** The arbitrary of mutation plans for `route` (`paths`: its field paths). */
export function planArbitrary(route: FuzzRoute, paths: string[][]): fc.Arbitrary<Plan> {
  const options: fc.WeightedArbitrary<Plan>[] = [];
  const hasBody = route.body !== undefined;
  const path = paths.length ? fc.constantFrom(...paths) : fc.constant<string[]>([]);
  if (hasBody) {
    options.push({ weight: 10, arbitrary: fc.record({ op: fc.constant("set" as const), path, value: nastyValue }) });
    options.push({ weight: 3, arbitrary: fc.record({ op: fc.constant("delete" as const), path }) });
    options.push({
      weight: 3,
      arbitrary: fc.record({ op: fc.constant("extra" as const), path: fc.oneof(fc.constant<string[]>([]), path), key: nastyKey, value: nastyValue }),
    });
    options.push({ weight: 2, arbitrary: fc.record({ op: fc.constant("root" as const), value: nastyValue }) });
    options.push({ weight: 1, arbitrary: fc.constant<Plan>({ op: "valid" }) });
  } else if (route.method !== "GET") {
    // Routes without a declared body still get hostile bodies.
    options.push({ weight: 3, arbitrary: fc.record({ op: fc.constant("root" as const), value: nastyValue }) });
  }
  if (route.method !== "GET")
    options.push({
    weight: hasBody ? 3 : 2,
    arbitrary: fc.record({ op: fc.constant("raw" as const), raw: fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...RAW_KINDS) }, { weight: 1, arbitrary: fc.constant<RawKind>("over-limit-5mb") }), junk: fc.string({ maxLength: 12 }) }),
  });
  if (route.query || route.method === "GET") {
    const keys = [...paths.map((p) => p[0] ?? ""), "limit", "before", "accountId", "__proto__", "constructor"];
    options.push({ weight: 6, arbitrary: fc.record({ op: fc.constant("query" as const), key: fc.oneof(fc.constantFrom(...keys), nastyKey), value: nastyText, duplicate: fc.boolean() }) });
  }
  if (route.id) options.push({ weight: 4, arbitrary: fc.record({ op: fc.constant("id" as const), value: nastyText }) });
  const faults: AuthFault[] = route.auth === "session" ? ["none", "bogus-token", "bogus-cookie"] : route.auth === "none" ? ["bogus-token"] : ["none", "missing-signature", "bad-signature", "bad-ts", "unknown-key"];
  options.push({ weight: 1, arbitrary: fc.record({ op: fc.constant("auth" as const), fault: fc.constantFrom(...faults), value: asciiText }) });
  if (!hasBody && route.method === "GET") options.push({ weight: 1, arbitrary: fc.constant<Plan>({ op: "valid" }) });
  return fc.oneof(...options);
}

function clone(v: Json): Json {
  return v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json);
}

function setAt(root: Json, path: string[], mutate: (parent: { [k: string]: Json } | Json[], key: string) => void): Json {
  if (path.length === 0) return root;
  const top: Json = root !== null && typeof root === "object" ? root : {};
  let node: Json = top;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i] as string;
    const holder = node as { [k: string]: Json };
    let child = holder[k];
    if (child === null || typeof child !== "object" || child === undefined) {
      child = /^\d+$/.test(path[i + 1] ?? "") ? [] : {};
      holder[k] = child;
    }
    node = child;
  }
  mutate(node, path[path.length - 1] ?? "");
  return top;
}

function rawBody(kind: RawKind, sample: Json, junk: string): { body: string | Buffer; contentType?: string } {
  const json = JSON.stringify(sample ?? {});
  switch (kind) {
    case "invalid-json":
      return { body: json.slice(0, Math.max(1, Math.floor(json.length / 2))) + junk };
    case "empty-json":
      return { body: "" };
    case "text-plain":
      return { body: json, contentType: "text/plain" };
    case "form-urlencoded":
      return { body: "a=1&__proto__[x]=1&constructor[prototype][y]=2", contentType: "application/x-www-form-urlencoded" };
    case "over-limit":
      return { body: JSON.stringify({ pad: "x".repeat(300 * 1024) }) };
    case "over-limit-5mb":
      return { body: JSON.stringify({ pad: "x".repeat(5 * 1024 * 1024) }) };
    case "deep-raw":
      return { body: "[".repeat(100_000) + "]".repeat(100_000) };
    case "bom":
      return { body: `\ufeff${json}` };
    case "duplicate-keys":
      return { body: json.replace(/^\{/, '{"__proto__":{"admin":true},"constructor":1,') };
    case "invalid-utf8":
      return { body: Buffer.concat([Buffer.from(json.slice(0, -1)), Buffer.from([0x2c, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])]) };
    case "lone-surrogate-escape":
      return { body: json.replace(/"([A-Za-z]+)":"/, '"$1":"\\ud800\\u0000') };
    case "number-overflow":
      return { body: json.replace(/:(-?\d+(\.\d+)?)/, ":1e999999") };
  }
}

/**
 * Percent-encodes like encodeURIComponent, but an unpaired surrogate becomes its 3-byte WTF-8 form
 * (%ED%A0%80…): invalid UTF-8 in the URL, as a hostile client would send it.
 */
export function encodeHostile(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const nextLow = i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    if (isHigh && nextLow) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else {
      out += encodeURIComponent(s[i] ?? "");
    }
  }
  return out;
}

function encodeQuery(q: [string, string][]): string {
  return q.length ? "?" + q.map(([k, v]) => `${encodeHostile(k)}=${encodeHostile(v)}`).join("&") : "";
}

/** Turns a plan into a concrete request from a fresh valid sample of the route. */
export function materialise(route: FuzzRoute, plan: Plan, f: Fixtures): FuzzRequest {
  let id = route.id ? (route.realIdAllowed ? route.id(f) : unknownId()) : "";
  const query: [string, string][] = Object.entries(route.sampleQuery?.(f) ?? {});
  let body: Json | undefined = route.sample ? clone(route.sample(f)) : undefined;
  let raw: { body: string | Buffer; contentType?: string } | undefined;
  let authFault: FuzzRequest["authFault"];
  switch (plan.op) {
    case "set":
      body = setAt(body ?? {}, plan.path, (parent, key) => ((parent as { [k: string]: Json })[key] = clone(plan.value)));
      break;
    case "delete":
      body = setAt(body ?? {}, plan.path, (parent, key) => {
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
      });
      break;
    case "extra": {
      // JSON.parse makes an own "__proto__" key, as a client's JSON would.
      const extra = JSON.parse(`{${JSON.stringify(plan.key)}:${JSON.stringify(plan.value)}}`) as { [k: string]: Json };
      if (plan.path.length === 0) body = Object.assign(JSON.parse(JSON.stringify(body ?? {})) as { [k: string]: Json }, extra);
      else
        body = setAt(body ?? {}, plan.path, (parent, key) => {
          const target = (parent as { [k: string]: Json })[key];
          (parent as { [k: string]: Json })[key] = target !== null && typeof target === "object" && !Array.isArray(target) ? Object.assign(target, extra) : extra;
        });
      break;
    }
    case "root":
      body = clone(plan.value);
      break;
    case "raw":
      raw = rawBody(plan.raw, body ?? {}, plan.junk);
      break;
    case "id":
      id = plan.value;
      break;
    case "query": {
      const i = query.findIndex(([k]) => k === plan.key);
      if (i >= 0 && !plan.duplicate) query[i] = [plan.key, plan.value];
      else query.push([plan.key, plan.value]);
      break;
    }
    case "auth":
      authFault = { fault: plan.fault, value: plan.value };
      break;
    case "valid":
      break;
  }
  if (route.path === "/v1/slave/orders/poll" && body !== null && typeof body === "object" && !Array.isArray(body)) {
    // A valid long-poll parks for up to 25 s: keep the wait at zero so the run stays bounded.
    const wait = body.waitMs;
    if (typeof wait === "number" && wait > 0 && wait <= 25_000) body.waitMs = 0;
  }
  const pathWithId = route.path.replace(/:[A-Za-z]+/, encodeHostile(id).replace(/\./g, "%2E"));
  const url = pathWithId + encodeQuery(query);
  const req: FuzzRequest = { method: route.method, url, authFault };
  if (raw) {
    req.body = raw.body;
    req.contentType = raw.contentType ?? "application/json";
  } else if (body !== undefined) {
    req.body = JSON.stringify(body);
    req.contentType = "application/json";
  }
  return req;
}

/** A short printable form of a request (bodies cut to `max` characters). */
export function describeRequest(req: FuzzRequest, max = 600): string {
  const body = req.body === undefined ? "" : typeof req.body === "string" ? req.body : `<bytes> ${req.body.toString("latin1")}`;
  const shown = body.length > max ? `${body.slice(0, max)}… (${body.length} chars)` : body;
  const fault = req.authFault ? ` [auth: ${req.authFault.fault}${req.authFault.value ? ` ${req.authFault.value.slice(0, 40)}` : ""}]` : "";
  return `${req.method} ${req.url.length > 300 ? req.url.slice(0, 300) + "…" : req.url}${fault}${req.contentType && req.contentType !== "application/json" ? ` (${req.contentType})` : ""}${shown ? ` ${JSON.stringify(shown)}` : ""}`;
}

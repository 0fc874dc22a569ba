import { describe, expect, it } from "vitest";
import { filterReference, toReference, typeLabel, type OpenApiDocument } from "./openapi";

const DOC: OpenApiDocument = {
  openapi: "3.1.0",
  tags: [
    { name: "Symbol maps", description: "Mappings." },
    { name: "Unused", description: "No operation." },
  ],
  components: { schemas: { Side: { type: "string", enum: ["BUY", "SELL"] } } },
  paths: {
    "/api/symbol-maps/{id}": {
      put: {
        tags: ["Symbol maps"],
        description: "Edits a symbol mapping.",
        security: [{ session: [] }, { sessionCookie: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { masterSymbol: { type: "string" }, lotMultiplier: { type: "number" } }, required: ["masterSymbol"] },
            },
          },
        },
      },
    },
    "/v1/master/signal/open": {
      post: {
        tags: ["Bridge: master"],
        description: "A master OPEN event.",
        security: [{ bridgeSignature: [] }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                anyOf: [
                  { type: "object", properties: { side: { $ref: "#/components/schemas/Side" }, volume: { type: ["string", "null"] } }, required: ["side", "volume"] },
                  { type: "object", properties: { side: { $ref: "#/components/schemas/Side" } }, required: ["side"] },
                ],
              },
            },
          },
        },
      },
    },
    "/api/auth/login": { post: { description: "Signs in.", security: [] } },
  },
};

describe("API reference from /api/openapi.json", () => {
  it("groups operations by tag in the document's order, drops empty tags and puts untagged ones under Other", () => {
    const groups = toReference(DOC);
    expect(groups.map((g) => g.tag)).toEqual(["Symbol maps", "Bridge: master", "Other"]);
    expect(groups[0]?.description).toBe("Mappings.");
  });

  it("lists parameters and body fields with type and required, and the auth in words", () => {
    const [maps, master, other] = toReference(DOC);
    expect(maps?.operations[0]).toEqual({
      method: "PUT",
      path: "/api/symbol-maps/{id}",
      description: "Edits a symbol mapping.",
      auth: ["Session (Bearer token)", "Session cookie"],
      fields: [
        { name: "id", in: "path", type: "string (uuid)", required: true },
        { name: "masterSymbol", in: "body", type: "string", required: true },
        { name: "lotMultiplier", in: "body", type: "number", required: false },
      ],
    });
    // A union body: fields merged, required only where every variant requires them; $ref resolved.
    expect(master?.operations[0]?.fields).toEqual([
      { name: "side", in: "body", type: "BUY | SELL", required: true },
      { name: "volume", in: "body", type: "string | null", required: false },
    ]);
    expect(master?.operations[0]?.auth).toEqual(["Signed API key (HMAC-SHA256)"]);
    expect(other?.operations[0]?.auth).toEqual([]);
  });

  it("labels arrays, formats and unknown schemas", () => {
    expect(typeLabel({ type: "array", items: { type: "string", format: "uuid" } }, DOC)).toBe("array of string (uuid)");
    expect(typeLabel(undefined, DOC)).toBe("any");
    expect(typeLabel({ const: "OPEN" }, DOC)).toBe('"OPEN"');
  });

  it("filters on every word across method, path, description, tag and field names", () => {
    const groups = toReference(DOC);
    expect(filterReference(groups, "").length).toBe(3);
    expect(filterReference(groups, "put symbol").flatMap((g) => g.operations.map((o) => o.path))).toEqual(["/api/symbol-maps/{id}"]);
    expect(filterReference(groups, "lotMultiplier").flatMap((g) => g.operations.map((o) => o.path))).toEqual(["/api/symbol-maps/{id}"]);
    expect(filterReference(groups, "MASTER open").flatMap((g) => g.operations.map((o) => o.path))).toEqual(["/v1/master/signal/open"]);
    expect(filterReference(groups, "nothing-like-this")).toEqual([]);
  });
});

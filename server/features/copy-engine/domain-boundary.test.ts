/**
 * The lint rules that keep the copy engine's core pure and the server free of import cycles
 * (eslint.config.js): importing the database, Fastify, realtime/, http/ or Node I/O into
 * domain/ is an error; the same imports outside domain/ are not; #contract, big.js and the
 * domain's own modules are allowed.
 */
import { describe, expect, it } from "vitest";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";

// The fixtures are not files of the TypeScript project: lint them without type information.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: [{ files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked }] });

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => `${m.line}`);
}

const forbidden = [
  `import { sql } from "drizzle-orm";`,
  `import type { Db } from "../../../db/client.ts";`,
  `import type { FastifyInstance } from "fastify";`,
  `import type { RealtimeHub } from "../../../realtime/hub.ts";`,
  `import { AppError } from "../../../http/errors.ts";`,
  `import { readFileSync } from "node:fs";`,
  `import { randomUUID } from "crypto";`,
  `import { claimSignal } from "../store/open-store.ts";`,
];
const allowed = [`import Big from "big.js";`, `import type { Side } from "#contract";`, `import { floorToStep } from "./volume.ts";`];

describe("domain/ import boundary (eslint.config.js)", () => {
  it("flags every forbidden import in a domain file, and none of the allowed ones", async () => {
    const code = [...forbidden, ...allowed, "export {};"].join("\n");
    const lines = await restrictedImports(code, "server/features/copy-engine/domain/zz-boundary-fixture.ts");
    expect([...new Set(lines)]).toEqual(forbidden.map((_, i) => String(i + 1)));
  }, 60_000);

  it("lets the store import the database", async () => {
    const code = [`import { sql } from "drizzle-orm";`, `import type { Db } from "../../../db/client.ts";`, "export {};"].join("\n");
    expect(await restrictedImports(code, "server/features/copy-engine/store/zz-boundary-fixture.ts")).toEqual([]);
  }, 60_000);
});

/**
 * The lint rules that keep the copy engine's core pure and the server free of import cycles
 * (eslint.config.js): importing the database, Fastify, realtime/, http/ or Node I/O into
 * domain/ is an error; the same imports outside domain/ are not; #contract, big.js and the
 * domain's own modules are allowed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";

// The fixtures are not files of the TypeScript project: lint them without type information, and
// without the cycle rule (it reads imported files from disk, and a fixture is not on disk).
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{ files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked }, { files: ["**/*.ts"], rules: { "import/no-cycle": "off" } }],
});

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

describe("import cycles (eslint.config.js import/no-cycle)", () => {
  it("are an error on the server", async () => {
    // Two real files that import each other (the rule follows imports on disk).
    const dir = mkdtempSync(join(process.cwd(), "server", "zz-cycle-"));
    try {
      writeFileSync(join(dir, "a.ts"), `import { b } from "./b.ts";\nexport const a = (): number => b() + 1;\n`);
      writeFileSync(join(dir, "b.ts"), `import { a } from "./a.ts";\nexport const b = (): number => (Date.now() < 0 ? a() : 1);\n`);
      const linter = new ESLint({ cwd: process.cwd(), overrideConfig: [{ files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked }] });
      const results = await linter.lintFiles([join(dir, "a.ts")]);
      expect(results.flatMap((r) => r.messages.map((m) => m.ruleId))).toContain("import/no-cycle");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

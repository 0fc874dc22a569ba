/**
 * tools/ts-loader.mjs, the server process's TypeScript loader: modules run as their TypeScript
 * with the types stripped and nothing added — above all no `__name(fn, "…")` around each closure
 * (tsx's `keepNames`: an `Object.defineProperty` every time the closure is made) — and stack
 * traces name the TypeScript file and line.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SERVER_LOADER } from "./server-command.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `code` (an ES module) in a Node process with the server's loader; its standard output, parsed as JSON. */
function run(code: string): unknown {
  const out = execFileSync(process.execPath, ["--import", SERVER_LOADER, "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out);
}

describe("the server's TypeScript loader", () => {
  it("runs TypeScript without wrapping closures in __name", () => {
    const out = run(`
      const m = await import("./tools/fixtures/ts-loader-sample.ts");
      const c = m.closures({ a: 5, b: 3 });
      console.log(JSON.stringify({ sum: c.sum(), diff: c.diff(), names: [c.sum.name, c.diff.name], source: m.closures.toString() }));
    `) as { sum: number; diff: number; names: string[]; source: string };
    expect([out.sum, out.diff]).toEqual([8, 2]);
    // JavaScript names a closure after its binding by itself.
    expect(out.names).toEqual(["sum", "diff"]);
    expect(out.source).not.toContain("__name");
    expect(out.source).not.toContain(": number");
  });

  it("leaves no __name in the poll's hot modules", () => {
    const out = run(`
      const modules = ["./server/http/admission-limiter.ts", "./server/features/copy-engine/delivery/delivery.ts", "./server/features/copy-engine/delivery/slave-delivery.ts"];
      const sources = [];
      for (const path of modules) for (const value of Object.values(await import(path))) if (typeof value === "function") sources.push(value.toString());
      console.log(JSON.stringify({ count: sources.length, named: sources.filter((s) => s.includes("__name")).length }));
    `) as { count: number; named: number };
    expect(out.count).toBeGreaterThan(0);
    expect(out.named).toBe(0);
  });

  it("gives stack traces in the TypeScript file's lines", () => {
    const out = run(`
      const m = await import("./tools/fixtures/ts-loader-sample.ts");
      try { m.fail(); } catch (err) { console.log(JSON.stringify(err.stack.split("\\n")[1])); }
    `) as string;
    expect(out).toMatch(/ts-loader-sample\.ts:13:\d+/);
  });
});

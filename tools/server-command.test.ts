/**
 * tools/server-command.mjs is the one way the server process is started: `npm start`, the test
 * and benchmark servers and the demo use it, so a benchmark measures the process `npm start` runs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SERVER_LOADER, SERVER_NODE_OPTIONS, serverNodeArgs } from "./server-command.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mjs|js)$/.test(name) ? [path] : [];
  });
}

describe("serverNodeArgs", () => {
  it("puts the Node options, then any extra options, before the loader and the entry point", () => {
    expect(serverNodeArgs()).toEqual([...SERVER_NODE_OPTIONS, "--import", SERVER_LOADER, "server/main.ts"]);
    expect(serverNodeArgs(["--cpu-prof"])).toEqual([...SERVER_NODE_OPTIONS, "--cpu-prof", "--import", SERVER_LOADER, "server/main.ts"]);
    expect(SERVER_NODE_OPTIONS).toContain("--max-semi-space-size=64");
  });

  it("is how every launcher starts the server: no other file names the entry point", () => {
    const naming = ["tools", "e2e", "server"]
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => !f.endsWith("server-command.mjs") && !f.endsWith("server-command.test.ts"))
      .filter((f) => /["'`]server\/main\.ts["'`]/.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    expect(naming).toEqual([]);
    for (const launcher of ["tools/start.mjs", "e2e/support/server.ts", "tools/simulator/demo/server-process.ts"]) {
      expect(readFileSync(join(ROOT, launcher), "utf8")).toContain("serverNodeArgs(");
    }
  });
});

// Module customization hooks of tools/ts-loader.mjs (Node's `module.register`; they run on the
// loader's own thread). `load`: a `file:` URL ending in `.ts` outside node_modules is read and
// transformed by esbuild (types stripped, nothing else changed: ES2023 syntax runs as written on
// Node 20) and returned as an ES module — the server and contract are ES modules that import
// TypeScript files by their `.ts` names or through package.json "imports" (`#contract`), which
// Node's own resolver finds. Everything else goes to Node's loader unchanged.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

/**
 * The compiler options esbuild's TypeScript transform reads (tsconfig.base.json's): imports kept as
 * written (`verbatimModuleSyntax`, type-only ones are `import type`), class fields defined as
 * ES2022+ defines them.
 */
const TSCONFIG = { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true, target: "ES2023" } };

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts") || url.includes("/node_modules/")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: `node${process.versions.node}`,
    sourcefile: path,
    sourcemap: "inline",
    tsconfigRaw: TSCONFIG,
  });
  return { format: "module", source: code, shortCircuit: true };
}

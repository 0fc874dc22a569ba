// The server process's TypeScript loader: `node --import ./tools/ts-loader.mjs server/main.ts`
// (tools/server-command.mjs). It registers ts-loader-hooks.mjs, which hands each `.ts` module of
// ours to esbuild's `transform` and loads the result as an ES module; every other module loads as
// Node loads it. Stack traces point into the TypeScript sources (inline source maps).
//
// Why not tsx, which ran the server until 2026-12-01 and still runs the tools (`tsx tools/…`):
// tsx hard-codes esbuild's `keepNames`, which wraps every function expression given a name by its
// binding — `{ claim: () => … }`, `const next = () => …` — in a `__name(fn, "…")` call, i.e. an
// `Object.defineProperty` on the fresh function EACH time the enclosing code runs: about 360 ns a
// closure here against 7 ns without (a micro-benchmark, Node 20), 2–3 % of the server's CPU in a
// cost-benchmark profile (a poll alone creates about fifteen such closures). Without minified
// identifiers nothing is renamed, so the names `keepNames` keeps are the ones JavaScript gives
// anyway. docs/benchmarks.md (session of 2026-12-01 03:59) has the figures.
import { register } from "node:module";

process.setSourceMapsEnabled(true);
register("./ts-loader-hooks.mjs", import.meta.url);

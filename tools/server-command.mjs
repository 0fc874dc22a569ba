// How every launcher starts the server process (`npm start` via tools/start.mjs, the test and
// benchmark servers of e2e/support/server.ts, the simulator's demo): one list, so the benchmarks
// measure the process `npm start` runs.
//
// `--max-semi-space-size=64` (MB; Node 20's default is 16): the copy path allocates about 160 KB
// per copied order (request bodies, database rows, answers), nearly all of it dead within a turn
// or two. With the default young generation the cost benchmark (100 slaves, PostgreSQL, 12,000
// orders) ran about 180 scavenges, 540–660 ms of them; with 64 MB about 70, 290–340 ms, and the
// server's CPU per order about 5 % lower (docs/benchmarks.md, session of 2026-11-29 21:44). The
// price is memory: the young generation may grow to 3 × 64 MB instead of 3 × 16 (Node.js's
// documentation of the option); a server just started on PGlite measured 978 MB resident against
// 906 without it.

/** Node.js options of the server process, before its entry point. */
export const SERVER_NODE_OPTIONS = ["--max-semi-space-size=64"];

/**
 * The TypeScript loader of the server process (tools/ts-loader.mjs: esbuild's transform without
 * tsx's `keepNames`, which cost 2–3 % of the server's CPU on the copy path; the file says why).
 */
export const SERVER_LOADER = "./tools/ts-loader.mjs";

/** The server's arguments to `node` (process.execPath), from the repository root: options, the TypeScript loader, the entry point. */
export function serverNodeArgs(extra = []) {
  return [...SERVER_NODE_OPTIONS, ...extra, "--import", SERVER_LOADER, "server/main.ts"];
}

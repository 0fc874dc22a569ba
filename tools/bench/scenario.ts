/** What every throughput scenario module takes and shares: options, the machine line, the section layout. */
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import type { DbKind } from "../../e2e/support/databases.ts";

export interface ScenarioOptions {
  /** Shrink everything to seconds (a smoke run; numbers mean nothing). */
  quick: boolean;
  /** Databases to run the server on (scenarios about PostgreSQL skip when it is not listed). */
  dbs: DbKind[];
  /** Overload scenario: seconds of the 20 signals/s run (default 60). */
  overloadSeconds?: number;
}

/** "2 × CPU model, Node vX, PostgreSQL Y, date" — the first line of every section. */
export function machineLine(): string {
  let pgVersion = "unknown";
  try {
    pgVersion = execFileSync("psql", [process.env.TEST_DATABASE_URL ?? "", "-Atc", "show server_version"]).toString().trim();
  } catch {
    // no psql or no server: say so in the line
  }
  return `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, PostgreSQL ${pgVersion}, ${new Date().toISOString().slice(0, 10)}`;
}

/** A section: machine line, an optional quick-run warning, tables/notes, and the verdict lines. */
export function sectionText(opts: ScenarioOptions, parts: string[], verdicts: string[]): string {
  const warn = opts.quick ? ["**--quick smoke run: too few samples, the numbers mean nothing.**"] : [];
  return [machineLine(), ...warn, ...parts, verdicts.join("  \n")].join("\n\n");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * `doc` with the block between `<!-- name:start -->` and `<!-- name:end -->` replaced by `content`;
 * a section with no markers yet is appended at the end, never lost.
 */
export function replaceSection(doc: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${content}\n${end}`;
  const at = doc.indexOf(start);
  const until = at < 0 ? -1 : doc.indexOf(end, at);
  if (at < 0 || until < 0) return `${doc.trimEnd()}\n\n${block}\n`;
  return doc.slice(0, at) + block + doc.slice(until + end.length);
}

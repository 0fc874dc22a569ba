/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): vitest's own order
 * (files that failed or ran longest first, else the largest), with the browser and terminals
 * files spread through the others by expected time instead of all after them.
 *
 * Those files take e2e/support/exclusive-file.ts's lock, one at a time. In vitest's order they come
 * together (projects sort by name), so the second worker would take the next one and wait for the
 * lock while the first runs. Spread over the others' expected time, the second worker runs unit
 * and api files meanwhile, and the exclusive files end about when the others do.
 *
 * Replayed with the file times of a CI run on a 2-core machine (two workers, the lock; 2026-11-29):
 * all exclusive files after the others 2,140 s; spread by count 1,850 s (they bunch at the end:
 * the unit files, last in vitest's order, take a tenth of an api file's time each); by expected
 * time 1,756 s; by expected time over its first four fifths 1,679 s, the lower bound of two
 * workers ((others + exclusive) / 2) — the last exclusive files are not left to run alone.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Projects whose files hold the exclusive lock (see vitest.config.ts). */
export const EXCLUSIVE_PROJECTS = new Set(["browser", "terminals"]);

/**
 * A file's expected seconds when vitest has no time of its own for it (a fresh clone, as in CI):
 * the mean per file of each project in CI (2026-11-29: api 38 s, browser 27 s, terminals 43 s, unit
 * 4 s). Only the order depends on it.
 */
export const EXPECTED_SECONDS: Record<string, number> = { api: 38, browser: 27, terminals: 43, unit: 4 };
const DEFAULT_SECONDS = 10;
/** The share of the others' expected time the exclusive files are spread over (see above). */
export const SPREAD_OVER = 0.8;

/**
 * `ordered` with the exclusive files (by `isExclusive`) spread evenly over the share `over` of the
 * others' total `weight`: the i-th of n exclusive files goes where the others before it weigh
 * about i/n × over × total (the first one first). Each group keeps its own relative order.
 */
export function spreadExclusive<T>(ordered: readonly T[], isExclusive: (f: T) => boolean, weight: (f: T) => number = () => 1, over = 1): T[] {
  const exclusive = ordered.filter(isExclusive);
  const others = ordered.filter((f) => !isExclusive(f));
  if (exclusive.length === 0 || others.length === 0) return [...ordered];
  const total = others.reduce((sum, f) => sum + weight(f), 0);
  const out: T[] = [];
  let before = 0;
  let next = 0;
  exclusive.forEach((f, i) => {
    const at = (i * over * total) / exclusive.length;
    // A file goes before the exclusive one when at least half of it lies before the mark.
    while (next < others.length && before + weight(others[next]!) / 2 <= at) {
      before += weight(others[next]!);
      out.push(others[next++]!);
    }
    out.push(f);
  });
  while (next < others.length) out.push(others[next++]!);
  return out;
}

export default class SpreadExclusiveSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    // A time vitest kept from an earlier run (the key its own sort reads), else the project mean.
    const seconds = (f: TestSpecification): number => {
      const known = this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`)?.duration;
      return known !== undefined && known > 0 ? known / 1000 : (EXPECTED_SECONDS[f.project.name] ?? DEFAULT_SECONDS);
    };
    return spreadExclusive(ordered, (f) => EXCLUSIVE_PROJECTS.has(f.project.name), seconds, SPREAD_OVER);
  }
}


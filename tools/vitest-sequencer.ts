/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): vitest's own order
 * (files that failed or ran longest first, else the largest), with the browser and terminals
 * files spread evenly through the others instead of all after them.
 *
 * Those files take e2e/support/exclusive-file.ts's lock, one at a time. In vitest's order they come
 * together (projects sort by name), so the second worker would take the next one and wait for the
 * lock while the first runs; spread out, the second worker runs unit and api files meanwhile.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Projects whose files hold the exclusive lock (see vitest.config.ts). */
export const EXCLUSIVE_PROJECTS = new Set(["browser", "terminals"]);

/**
 * `files` in `order` with the exclusive ones (by `isExclusive`) placed at evenly spaced positions
 * among the others, the first of them first; each group keeps its own relative order.
 */
export function spreadExclusive<T>(ordered: readonly T[], isExclusive: (f: T) => boolean): T[] {
  const exclusive = ordered.filter(isExclusive);
  const others = ordered.filter((f) => !isExclusive(f));
  if (exclusive.length === 0 || others.length === 0) return [...ordered];
  const out: T[] = [];
  const gap = others.length / exclusive.length;
  let next = 0;
  exclusive.forEach((f, i) => {
    const upTo = Math.round(i * gap);
    while (next < upTo) out.push(others[next++]!);
    out.push(f);
  });
  while (next < others.length) out.push(others[next++]!);
  return out;
}

export default class SpreadExclusiveSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return spreadExclusive(await super.sort(files), (f) => EXCLUSIVE_PROJECTS.has(f.project.name));
  }
}

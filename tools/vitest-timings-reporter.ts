/**
 * A vitest reporter printing where the test time went, after the run: the total per project and
 * the slowest test files (each file's wall time from its module's diagnostic: import, setup hooks
 * and tests). On in CI (.ci/run sets VITEST_TIMINGS), so each CI log says what to speed up next
 * against the 20-minute budget.
 */
import type { Reporter, TestModule } from "vitest/node";

const TOP = 20;

export default class TimingsReporter implements Reporter {
  private readonly modules: { name: string; project: string; ms: number; tests: number }[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    this.modules.push({
      name: module.moduleId.replace(`${process.cwd()}/`, ""),
      project: module.project.name,
      ms: d.duration,
      tests: [...module.children.allTests()].length,
    });
  }

  onTestRunEnd(): void {
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const perProject = new Map<string, number>();
    for (const m of this.modules) perProject.set(m.project, (perProject.get(m.project) ?? 0) + m.ms);
    const lines = ["", "== test time by project (sum of file wall times, two files at a time; a browser or terminals file's includes its wait for the one-at-a-time lock)"];
    for (const [p, ms] of [...perProject].sort((a, b) => b[1] - a[1])) lines.push(`  ${p.padEnd(10)} ${s(ms).padStart(9)}`);
    lines.push(`== ${TOP} slowest test files`);
    for (const m of [...this.modules].sort((a, b) => b.ms - a.ms).slice(0, TOP)) {
      lines.push(`  ${s(m.ms).padStart(9)}  ${m.name} (${m.tests} tests)`);
    }
    console.log(lines.join("\n"));
  }
}

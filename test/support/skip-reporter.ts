// A reporter beside vitest's default one (vitest.config.ts): at the end of a run, each group of skipped tests
// and why it was skipped. The default summary says "16 skipped" and no more; the reasons are in the titles
// (test/support/tools.ts `titled`: "… (skipped: needs zsh: apt-get install zsh)"), which only a verbose
// reporter shows. Through vitest's public reporter API alone.
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';

const REASON = / \(skipped: (.*)\)$/;

/** One group of skipped tests: the outermost suite (or the test) whose title says why. */
interface Group {
  where: string;
  reason: string;
  tests: number;
}

/** The outermost of the test and its suites whose title carries a reason, if any. */
function reasoned(test: TestCase): TestCase | TestSuite | undefined {
  let found: TestCase | TestSuite | undefined = REASON.test(test.name) ? test : undefined;
  for (let p = test.parent; p.type === 'suite'; p = p.parent) if (REASON.test(p.name)) found = p;
  return found;
}

/** Pure: the lines that end the run's output (none when nothing was skipped). */
export function skipSummary(groups: readonly Group[], unexplained: number): string[] {
  if (groups.length === 0 && unexplained === 0) return [];
  const lines = [' Skipped, and why:'];
  for (const g of groups) {
    lines.push(`   ${g.where} (${g.tests} ${g.tests === 1 ? 'test' : 'tests'}): ${g.reason}`);
  }
  if (unexplained > 0) {
    lines.push(`   ${unexplained} more with no reason in their title (a -t filter, or a .skip without one)`);
  }
  return ['', ...lines, ''];
}

export default class SkipReasons implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const groups = new Map<string, Group>();
    let unexplained = 0;
    for (const mod of modules) {
      for (const test of mod.children.allTests('skipped')) {
        const owner = reasoned(test);
        if (owner === undefined) {
          unexplained += 1;
          continue;
        }
        const [, reason = ''] = REASON.exec(owner.name) ?? [];
        const where = `${mod.relativeModuleId} > ${owner.fullName.replace(REASON, '')}`;
        const group = groups.get(where) ?? { where, reason, tests: 0 };
        group.tests += 1;
        groups.set(where, group);
      }
    }
    for (const line of skipSummary([...groups.values()], unexplained)) this.vitest?.logger.log(line);
  }
}

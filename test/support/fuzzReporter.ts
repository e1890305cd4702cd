/**
 * The fuzzers' count (`npm run fuzz`): each property-based test records how many inputs it tried in
 * its task's meta (`inputs`); this reporter adds them up, prints the total per file and in all, and
 * fails the run when FUZZ_MIN_INPUTS is set and the total falls short of it (CI asks for 100,000).
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';

declare module 'vitest' {
  interface TaskMeta {
    /** Inputs a property-based test tried. */
    inputs?: number;
  }
}

export default class FuzzReporter implements Reporter {
  private readonly byFile = new Map<string, number>();
  private failed = 0;

  onTestCaseResult(testCase: TestCase): void {
    // A property that failed stopped before recording its count.
    if (testCase.result().state === 'failed') this.failed++;
    const inputs = testCase.meta().inputs;
    if (inputs === undefined) return;
    const file = testCase.module.relativeModuleId;
    this.byFile.set(file, (this.byFile.get(file) ?? 0) + inputs);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>): void {
    const total = [...this.byFile.values()].reduce((a, b) => a + b, 0);
    const lines = [...this.byFile].map(([file, n]) => `  ${n.toLocaleString('en-US').padStart(9)}  ${file}`);
    console.log(`\nfuzz inputs tried:\n${lines.join('\n')}\n  ${total.toLocaleString('en-US').padStart(9)}  in all; failing properties: ${this.failed}`);
    const minimum = Number(process.env.FUZZ_MIN_INPUTS ?? 0);
    if (total < minimum) {
      console.error(`fuzz: ${total} inputs tried, fewer than FUZZ_MIN_INPUTS=${minimum}`);
      process.exitCode = 1;
    }
  }
}

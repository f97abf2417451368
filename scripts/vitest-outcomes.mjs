// A vitest reporter for `npm test`: writes each failed and each flaky test (passed on a retry) with
// its file and first error line to the file named by VITEST_OUTCOMES, so the last lines `npm test`
// prints (all that a CI log may keep) name them.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class VitestOutcomes {
  failed = [];
  flaky = [];

  onTestCaseResult(testCase) {
    const result = testCase.result();
    const where = `${relative(process.cwd(), testCase.module.moduleId)} › ${testCase.fullName}`;
    if (result.state === 'failed') {
      const error = result.errors?.[0];
      this.failed.push({ test: where, error: String(error?.message ?? error ?? '').split('\n')[0] });
    } else if (testCase.diagnostic()?.flaky) this.flaky.push({ test: where });
  }

  onTestRunEnd() {
    const file = process.env.VITEST_OUTCOMES;
    if (file) writeFileSync(file, JSON.stringify({ failed: this.failed, flaky: this.flaky }, null, 2));
  }
}

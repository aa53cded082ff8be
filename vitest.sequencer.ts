import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The few suites that take minutes (SIGKILL-and-resume of thousands of files, the resize
 * budget, the supervisor's restarts) start first, whatever vitest's cache says: started last on
 * a fresh clone (CI has no cache) one of them alone decided the run's length.
 */
const LONG = /storage-jobs-crash|storage-budget|hung-service|launcher\.test|storage-crash|plan-cache|people\/cli\.test/;

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (LONG.test(f.moduleId) ? (f.moduleId.includes("storage-jobs-crash") ? 0 : 1) : 2);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}

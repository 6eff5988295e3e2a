import { stat } from "node:fs/promises";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Without vitest's cache of durations (a fresh clone) these go first, in this
// order: the longest files of an idle run (issue 14), whose size does not show it.
const KNOWN_LONG = [
  "robustness/fuzz-postgres",
  "data-dir-owner",
  "hosted-pages",
  "robustness/fuzz-embedded",
  "users-update",
  "admin-users",
  "console-operations",
  "mfa.test",
  "admin-audit",
  "kill9-delivery",
  "services-embedded",
  "console-signin",
  "terms.test",
  "build.test",
  "entrypoint-api",
  "per-user-sessions",
  "users-smtp",
  "refresh-token-grant",
  "security-headers",
  "console-browser",
  "embedded.test",
  "jobs/test/transactional",
  "users/src/login/login.test",
  "edge-socket",
  "kv/src/kv.test",
];

// Files of one project run back to back, so that a worker (isolate: false)
// goes on to the next file of its project with the modules it already loaded;
// the project with the most files (every Node suite, vitest.config.ts) starts
// first and its longest files first, so the long files overlap and the short
// ones fill the end. Files without a cached duration (new ones) go first, the
// known long ones and then the larger ones first.
export class ProjectsLongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = new Map(files.map((spec) => [spec, this.ctx.cache.getTestSpecificationResult(spec)?.duration]));
    const size = new Map<TestSpecification, number>();
    await Promise.all(files.map(async (spec) => size.set(spec, (await stat(spec.moduleId)).size)));
    const filesOf = new Map<string, number>();
    for (const spec of files) filesOf.set(spec.project.name, (filesOf.get(spec.project.name) ?? 0) + 1);
    const longRank = (spec: TestSpecification) => {
      const i = KNOWN_LONG.findIndex((part) => spec.moduleId.includes(part));
      return i === -1 ? KNOWN_LONG.length : i;
    };
    return [...files].sort((a, b) => {
      const byProject = filesOf.get(b.project.name)! - filesOf.get(a.project.name)!;
      if (byProject !== 0) return byProject;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const da = duration.get(a);
      const db = duration.get(b);
      if (da === undefined || db === undefined) {
        if (da !== undefined || db !== undefined) return da === undefined ? -1 : 1;
        return longRank(a) - longRank(b) || size.get(b)! - size.get(a)!;
      }
      return db - da;
    });
  }
}

import { stat } from "node:fs/promises";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files of one project run back to back so that a worker (isolate: false)
// goes on to the next file of its project with the modules it already loaded;
// the heaviest project (the whole-stack suites) starts first and its longest
// files first, so the long files overlap and the small projects fill the end.
// A file's weight is its last duration (vitest's cache) or else its size.
export class ProjectsLongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = new Map<TestSpecification, number>();
    await Promise.all(
      files.map(async (spec) => {
        const last = this.ctx.cache.getTestSpecificationResult(spec);
        weight.set(spec, last ? last.duration : (await stat(spec.moduleId)).size);
      }),
    );
    const projectWeight = new Map<string, number>();
    for (const spec of files) {
      const name = spec.project.name;
      projectWeight.set(name, (projectWeight.get(name) ?? 0) + (weight.get(spec) ?? 0));
    }
    return [...files].sort((a, b) => {
      const byProject = (projectWeight.get(b.project.name) ?? 0) - (projectWeight.get(a.project.name) ?? 0);
      if (byProject !== 0) return byProject;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return (weight.get(b) ?? 0) - (weight.get(a) ?? 0);
    });
  }
}

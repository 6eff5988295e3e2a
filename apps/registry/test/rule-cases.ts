import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "@gatehouse/db";
import { application, failure, startRegistry, validApplicationJson, type Harness } from "./harness.ts";

// The rule suites of src/applications/validate/: one case per rule of the
// Application, Entrypoint and fieldConfig tables, a valid application with
// one change, and the exact violations it yields.
export type Json = any;
export type Case = [name: string, change: (app: Json) => void, expected: [field: string, code: string][]];

export const ep = (app: Json) => app.entrypoints[0];
export const idField = (key: string, extra: Json = {}) => ({
  objectType: "fieldConfig",
  type: "id",
  key,
  main: false,
  mandatory: false,
  requiresConfirmation: false,
  ...extra,
});
export const dataField = (key: string, extra: Json = {}) => ({
  objectType: "fieldConfig",
  type: "field",
  key,
  ...extra,
});

/** A registry on `open` for the suite; `rejects` creates the valid application with one change and returns its failure. */
export function useRuleSuite(open: () => Promise<Db>) {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegistry(open);
  });
  afterAll(async () => {
    await h.close();
  });
  const rejects = async (change: (app: Json) => void) => {
    const json = validApplicationJson();
    change(json);
    return failure(h.operator.createApplication({ application: application(json) }));
  };
  return { harness: () => h, rejects };
}

/** Each case is refused as VALIDATION_FAILED with exactly its violations. */
export function itRejectsEachCase(rejects: ReturnType<typeof useRuleSuite>["rejects"], cases: Case[]): void {
  it.each(cases)("%s", async (_case, change, expected) => {
    const err = await rejects(change);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.reason).toBe("VALIDATION_FAILED");
    expect(err.violations.map((v) => [v.field, v.code])).toEqual(expected);
  });
}

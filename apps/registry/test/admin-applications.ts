import type { Db } from "@gatehouse/db";
import { afterAll, beforeAll } from "vitest";
import { application, startRegistry, validApplicationJson, type Harness } from "./harness.ts";

/**
 * The set-up of the admin suites of applications and entry points: a
 * registry on `open` for the suite (`set` hands it over) with three
 * applications, "Alpha Shop", "Beta Store" and "alphabet soup", whose client
 * ids fill the returned list in that order.
 */
export function useAdminApplications(open: () => Promise<Db>, set: (h: Harness) => void): string[] {
  let h: Harness | undefined;
  const created: string[] = [];
  beforeAll(async () => {
    h = await startRegistry(open);
    set(h);
    for (const name of ["Alpha Shop", "Beta Store", "alphabet soup"]) {
      const json = { ...validApplicationJson(), displayName: name, key: "" };
      created.push((await h.operator.createApplication({ application: application(json) })).application!.id);
    }
  });
  afterAll(async () => {
    await h?.close();
  });
  return created;
}

/** The registry's audit entries about `target`, oldest first. */
export const auditRows = async (h: Harness, target: string) =>
  (
    await h.db.query<{ actor: string; action: string; address: string; details: Record<string, unknown> }>(
      "SELECT actor, action, address, details FROM registry.audit_log WHERE target = $1 ORDER BY id",
      [target],
    )
  ).rows;

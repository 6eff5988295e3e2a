import type { Violation } from "@gatehouse/errors";
import type { Application } from "@gatehouse/proto";
import type { CatalogSnapshot } from "../../catalogs/store.ts";
import { validateApplicationFields } from "./application.ts";
import { validateEntrypoints } from "./entrypoints.ts";
import type { FieldRuleOptions } from "./fields.ts";
import { newIssues } from "./issues.ts";

export type { FieldRuleOptions } from "./fields.ts";

/** Every violation of the Application, Entrypoint and fieldConfig rules (empty when valid). */
export function validateApplication(
  app: Application,
  catalogs: CatalogSnapshot,
  options: FieldRuleOptions,
): Violation[] {
  const issues = newIssues();
  validateApplicationFields(app, catalogs, issues);
  validateEntrypoints(app.entrypoints, catalogs, options, issues);
  return issues.list;
}

import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import type { ApplicationRecord } from "@gatehouse/proto";
import { updateApplication } from "./update.ts";
import { settingsViolations, type SettingsValues } from "./validate/settings.ts";

export type ApplicationSettings = NonNullable<ApplicationRecord["settings"]>;

export interface SettingsChange extends SettingsValues {
  clientId: string;
}

/**
 * Changes the operator-managed settings of an application (each only when
 * given); the audit entry is written in the same transaction.
 */
export async function updateApplicationSettings(
  db: Db,
  c: SettingsChange,
  who: AuditContext,
): Promise<ApplicationSettings> {
  const violations = settingsViolations(c);
  if (violations.length) throw validationError(violations);
  const done = await updateApplication(db, c, who);
  return done.settings!;
}

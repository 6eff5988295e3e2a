import type { FieldConfig } from "@gatehouse/proto";
import type { CatalogSnapshot } from "../../catalogs/store.ts";
import type { Issues } from "./issues.ts";
import { checkObjectType } from "./issues.ts";

export interface FieldRuleOptions {
  /** A third-party face verification platform is purchased: national_id may require verification. */
  faceVerification: boolean;
}

export const ID_KEYS: readonly string[] = ["email", "phone_number", "national_id", "screen_name"];
const CONFIRMABLE_ID_KEYS: readonly string[] = ["email", "phone_number"];
export const MAX_FIELDS = 50;

type IdField = { index: number; field: FieldConfig };

/** The fieldConfig tables and the main-identifier rule for one entry point's `fields`. */
export function validateFields(
  fields: FieldConfig[],
  path: string,
  catalogs: CatalogSnapshot,
  options: FieldRuleOptions,
  issues: Issues,
): void {
  if (fields.length === 0) {
    issues.add(path, "too_few", "an entry point needs at least one field, an identifier among them");
    return;
  }
  if (fields.length > MAX_FIELDS) issues.add(path, "too_many", `at most ${MAX_FIELDS} fields`);
  const seen = new Set<string>();
  const idFields: IdField[] = [];
  fields.forEach((field, m) => {
    const p = `${path}.${m}`;
    checkObjectType(issues, `${p}.objectType`, field.objectType, "fieldConfig");
    if (!field.key) issues.add(`${p}.key`, "required");
    if (field.type === "id") {
      idFields.push({ index: m, field });
      checkIdField(issues, p, field, options);
    } else if (field.type === "field") {
      checkDataField(issues, p, field, catalogs);
    } else {
      issues.add(`${p}.type`, field.type ? "invalid_value" : "required", `must be "id" or "field"`);
      return;
    }
    const unique = `${field.type}:${field.key}`;
    if (field.key && seen.has(unique))
      issues.add(`${p}.key`, "duplicate", "this key is already a field of the entry point");
    seen.add(unique);
  });
  if (idFields.length === 0) issues.add(path, "too_few", "an entry point needs an identifier field");
  if (idFields.length > 1) checkMainRule(issues, path, idFields);
}

function checkIdField(issues: Issues, p: string, f: FieldConfig, options: FieldRuleOptions): void {
  const known = ID_KEYS.includes(f.key);
  if (f.key && !known) issues.add(`${p}.key`, "invalid_value", `must be one of ${ID_KEYS.join(", ")}`);
  if (f.main === undefined) issues.add(`${p}.main`, "required");
  if (f.mandatory === undefined) issues.add(`${p}.mandatory`, "required");
  if (f.requiresConfirmation === undefined) issues.add(`${p}.requiresConfirmation`, "required");
  // Without a known key, the key is the one violation (what it allows is not known).
  if (known && f.requiresConfirmation === true && !CONFIRMABLE_ID_KEYS.includes(f.key)) {
    issues.add(`${p}.requiresConfirmation`, "not_allowed", "only email and phone_number can require confirmation");
  }
  if (known && f.requiresVerification === true && (f.key !== "national_id" || !options.faceVerification)) {
    issues.add(
      `${p}.requiresVerification`,
      "not_allowed",
      f.key === "national_id" ? "face verification is not available" : "only national_id can require verification",
    );
  }
  if (f.useForValidation !== undefined)
    issues.add(`${p}.useForValidation`, "not_allowed", "only data fields take useForValidation");
  if (f.step !== undefined) issues.add(`${p}.step`, "not_allowed", "only data fields take a step");
}

function checkDataField(issues: Issues, p: string, f: FieldConfig, catalogs: CatalogSnapshot): void {
  if (f.key && !catalogs.data_field.has(f.key)) issues.add(`${p}.key`, "unknown_key", "not in the data-field catalog");
  if (f.step !== undefined && f.step !== 1 && f.step !== 2) issues.add(`${p}.step`, "invalid_value", "must be 1 or 2");
  if (f.main !== undefined) issues.add(`${p}.main`, "not_allowed", "only identifier fields take main");
  if (f.requiresConfirmation !== undefined) {
    issues.add(`${p}.requiresConfirmation`, "not_allowed", "only identifier fields take requiresConfirmation");
  }
  if (f.requiresVerification !== undefined) {
    issues.add(`${p}.requiresVerification`, "not_allowed", "only identifier fields take requiresVerification");
  }
}

// Several identifier fields: exactly one is main, and it is mandatory and confirmed.
function checkMainRule(issues: Issues, path: string, idFields: IdField[]): void {
  const mains = idFields.filter((x) => x.field.main === true);
  if (mains.length !== 1) {
    issues.add(path, "main_required", "exactly one identifier field must have main = true");
    return;
  }
  const { index, field } = mains[0]!;
  if (field.mandatory !== true || field.requiresConfirmation !== true) {
    issues.add(`${path}.${index}.main`, "main_rules", "the main identifier must be mandatory and require confirmation");
  }
}

import type { Entrypoint, Typologies } from "@gatehouse/proto";
import type { CatalogSnapshot } from "../../catalogs/store.ts";
import { entrypointIdCollisions } from "../client-ids.ts";
import { DEFAULT_TYPOLOGY } from "../defaults.ts";
import { validateFields, type FieldRuleOptions } from "./fields.ts";
import { KEY_PATTERN, MAX_DISPLAY_NAME } from "../../formats.ts";
import { checkObjectType, checkText, type Issues } from "./issues.ts";

export const MAX_ENTRYPOINTS = 20;
export const MAX_IDENTITY_PROVIDERS = 10;

/** The rules of the Entrypoint table for every element of `entrypoints`. */
export function validateEntrypoints(
  eps: Entrypoint[],
  catalogs: CatalogSnapshot,
  options: FieldRuleOptions,
  issues: Issues,
): void {
  if (eps.length === 0) issues.add("entrypoints", "too_few", "at least one entry point is required");
  if (eps.length > MAX_ENTRYPOINTS) issues.add("entrypoints", "too_many", `at most ${MAX_ENTRYPOINTS} entry points`);
  eps.forEach((ep, n) => validateEntrypoint(ep, `entrypoints.${n}`, catalogs, options, issues));
  for (const n of entrypointIdCollisions(eps)) {
    issues.add(`entrypoints.${n}.key`, "duplicate", "another entry point of this application has the same id");
  }
}

/** The rules of the Entrypoint table for one entry point at `path` ("" when it is the whole document). */
export function validateEntrypoint(
  ep: Entrypoint,
  path: string,
  catalogs: CatalogSnapshot,
  options: FieldRuleOptions,
  issues: Issues,
): void {
  const at = (member: string) => (path ? `${path}.${member}` : member);
  checkObjectType(issues, at("objectType"), ep.objectType, "entrypoint");
  checkText(issues, at("displayName"), ep.displayName, MAX_DISPLAY_NAME);
  if (ep.key && !KEY_PATTERN.test(ep.key))
    issues.add(at("key"), "invalid_format", "must match ^[a-z0-9][a-z0-9_-]{0,31}$");
  checkTypology(issues, at("typology"), ep.typology, catalogs);
  validateFields(ep.fields, at("fields"), catalogs, options, issues);
  checkIdentityProviders(issues, at("identityProviders"), ep.identityProviders, catalogs);
}

function checkTypology(
  issues: Issues,
  path: string,
  typology: Typologies | undefined,
  catalogs: CatalogSnapshot,
): void {
  checkObjectType(issues, `${path}.register.objectType`, typology?.register?.objectType, "typology");
  checkObjectType(issues, `${path}.work.objectType`, typology?.work?.objectType, "typology");
  const registerId = typology?.register?.id ?? DEFAULT_TYPOLOGY;
  if (!catalogs.typology.has(registerId))
    issues.add(`${path}.register.id`, "unknown_key", "not in the typology catalog");
  // An unset work id takes the register id, which is checked above.
  const workId = typology?.work?.id;
  if (workId !== undefined && !catalogs.typology.has(workId))
    issues.add(`${path}.work.id`, "unknown_key", "not in the typology catalog");
}

/** Keys of registered identity providers (contract section 11), each once. */
function checkIdentityProviders(issues: Issues, p: string, keys: string[], catalogs: CatalogSnapshot): void {
  if (keys.length > MAX_IDENTITY_PROVIDERS)
    issues.add(p, "too_many", `at most ${MAX_IDENTITY_PROVIDERS} identity providers`);
  keys.forEach((key, n) => {
    if (!catalogs.identityProviders.has(key))
      issues.add(`${p}.${n}`, "unknown_key", "not a registered identity provider (/admin/v1/identity-providers)");
    else if (keys.indexOf(key) !== n) issues.add(`${p}.${n}`, "duplicate", "listed twice");
  });
}

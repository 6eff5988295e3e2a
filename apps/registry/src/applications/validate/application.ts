import type { Application, Person } from "@gatehouse/proto";
import type { CatalogSnapshot } from "../../catalogs/store.ts";
import {
  E164_PATTERN,
  isEmail,
  isRedirectUri,
  isWebUrl,
  KEY_PATTERN,
  MAX_DISPLAY_NAME,
  MAX_URL_LENGTH,
} from "../../formats.ts";
import { checkObjectType, checkText, type Issues } from "./issues.ts";

export const MAX_REDIRECT_URIS = 20;

/** The rules of the Application table, except its entry points. */
export function validateApplicationFields(app: Application, catalogs: CatalogSnapshot, issues: Issues): void {
  checkObjectType(issues, "objectType", app.objectType, "application");
  if (app.key && !KEY_PATTERN.test(app.key))
    issues.add("key", "invalid_format", "must match ^[a-z0-9][a-z0-9_-]{0,31}$");
  checkText(issues, "displayName", app.displayName, MAX_DISPLAY_NAME);
  if (!app.url) issues.add("url", "required");
  else if (app.url.length > MAX_URL_LENGTH) issues.add("url", "too_long", `at most ${MAX_URL_LENGTH} characters`);
  else if (!isWebUrl(app.url)) issues.add("url", "invalid_format", "must be an absolute http(s) URL");

  checkPerson(issues, "contact.support", app.contact?.support, true);
  checkPerson(issues, "contact.projectManager", app.contact?.projectManager, false);
  checkPerson(issues, "contact.productOwner", app.contact?.productOwner, false);

  checkRedirectUris(issues, app.redirectUris);

  const org = app.organizationSchemaOrg;
  if (!org?.identifier) issues.add("organizationSchemaOrg.identifier", "required");
  else if (!catalogs.organization.has(org.identifier))
    issues.add("organizationSchemaOrg.identifier", "unknown_key", "not in the organisation catalog");
  if (org?.brand !== undefined && !catalogs.brand.has(org.brand))
    issues.add("organizationSchemaOrg.brand", "unknown_key", "not in the brand catalog");
  const category = app.schemaOrg?.applicationCategory;
  if (category !== undefined && !catalogs.property.has(category)) {
    issues.add("schemaOrg.applicationCategory", "unknown_key", "not in the property catalog");
  }
}

function checkPerson(issues: Issues, path: string, person: Person | undefined, mobileRequired: boolean): void {
  checkObjectType(issues, `${path}.objectType`, person?.objectType, "person");
  const email = person?.schemaOrg?.email?.value;
  if (!email) issues.add(`${path}.schemaOrg.email.value`, "required");
  else if (!isEmail(email)) issues.add(`${path}.schemaOrg.email.value`, "invalid_format", "must be an email address");
  const mobile = person?.schemaOrg?.mobile?.value;
  if (!mobile) {
    if (mobileRequired) issues.add(`${path}.schemaOrg.mobile.value`, "required");
  } else if (!E164_PATTERN.test(mobile)) {
    issues.add(`${path}.schemaOrg.mobile.value`, "invalid_format", "must be an E.164 number such as +34600000000");
  }
}

function checkRedirectUris(issues: Issues, uris: string[]): void {
  if (uris.length === 0) issues.add("redirectUris", "too_few", "at least one redirect URI is required");
  if (uris.length > MAX_REDIRECT_URIS)
    issues.add("redirectUris", "too_many", `at most ${MAX_REDIRECT_URIS} redirect URIs`);
  const seen = new Set<string>();
  uris.forEach((uri, n) => {
    const path = `redirectUris.${n}`;
    if (!uri) issues.add(path, "required");
    else if (uri.length > MAX_URL_LENGTH) issues.add(path, "too_long", `at most ${MAX_URL_LENGTH} characters`);
    else if (!isRedirectUri(uri))
      issues.add(path, "invalid_format", "must be an absolute URI without fragment or wildcard host");
    else if (seen.has(uri)) issues.add(path, "duplicate");
    seen.add(uri);
  });
}

import { clone, create, toJson } from "@bufbuild/protobuf";
import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import { newEvent } from "@gatehouse/events";
import { ApplicationSchema, ContactSchema, type ApplicationRecord, type Contact } from "@gatehouse/proto";
import { auditStore } from "../audit/store.ts";
import { publishEvents } from "../webhooks/events.ts";
import { catalogStore } from "../catalogs/store.ts";
import { applicationRecords } from "./records.ts";
import { validateApplicationFields } from "./validate/application.ts";
import { newIssues } from "./validate/issues.ts";
import { settingsViolations, type SettingsValues } from "./validate/settings.ts";

export const UPDATE_ACTION = "application.update";

const PERSONS = ["support", "projectManager", "productOwner"] as const;
const SETTINGS_MEMBERS = [
  "displayName",
  "url",
  "redirectUris",
  "whitelist",
  "defaultCallback",
  "mfa",
  "captcha",
  "smsPerHour",
  "phonePrefixes",
] as const;

/** What an operator changes of an application; each member only when given. */
export interface ApplicationChange extends SettingsValues {
  clientId: string;
  displayName?: string;
  url?: string;
  redirectUris?: string[];
  /** Each person given replaces that person. */
  contact?: Partial<Pick<Contact, (typeof PERSONS)[number]>>;
  /** Check every rule, change nothing. */
  validateOnly?: boolean;
}

/** The public JSON members a change touches (violations elsewhere are not its doing). */
function changedMembers(c: ApplicationChange): string[] {
  const out: string[] = [];
  for (const m of SETTINGS_MEMBERS) if (c[m] !== undefined) out.push(m);
  for (const p of PERSONS) if (c.contact?.[p]) out.push(`contact.${p}`);
  return out;
}

/**
 * Changes an application under every rule of its creation (contract sections
 * 3, 6 and 7), with the row locked, and writes the audit entry in the same
 * transaction. Contact persons are named in the audit, never their data.
 */
export async function updateApplication(db: Db, c: ApplicationChange, who: AuditContext): Promise<ApplicationRecord> {
  const settingsProblems = settingsViolations(c);
  const members = changedMembers(c);
  return db.tx(async (q) => {
    const records = applicationRecords(q);
    const current = await records.get(c.clientId, true);
    if (!current?.application)
      throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: c.clientId } });
    if (!members.length) return current;
    const app = clone(ApplicationSchema, current.application);
    if (c.displayName !== undefined) app.displayName = c.displayName;
    if (c.url !== undefined) app.url = c.url;
    if (c.redirectUris !== undefined) app.redirectUris = [...c.redirectUris];
    app.contact ??= create(ContactSchema);
    for (const p of PERSONS) if (c.contact?.[p]) app.contact[p] = c.contact[p];

    const issues = newIssues();
    validateApplicationFields(app, await catalogStore(q).snapshot(), issues);
    const mine = issues.list.filter((v) => members.some((m) => v.field === m || v.field.startsWith(`${m}.`)));
    if (mine.length || settingsProblems.length) throw validationError([...mine, ...settingsProblems]);
    if (c.validateOnly) return current;

    const document = toJson(ApplicationSchema, {
      ...app,
      id: "",
      entrypoints: [],
      createTime: undefined,
      updateTime: undefined,
    });
    await q.query(
      `UPDATE registry.clients SET document = $2::jsonb, display_name = $3, redirect_uris = $4::text[],
              whitelist = COALESCE($5::text[], whitelist),
              default_callback = CASE WHEN $6::text IS NULL THEN default_callback ELSE NULLIF($6::text, '') END,
              mfa = COALESCE($7::text, mfa), captcha = COALESCE($8::text, captcha),
              sms_per_hour = CASE WHEN $9::boolean THEN $10::integer ELSE sms_per_hour END,
              phone_prefixes = COALESCE($11::text[], phone_prefixes), updated_at = now()
        WHERE client_id = $1`,
      [
        c.clientId,
        JSON.stringify(document),
        app.displayName,
        app.redirectUris,
        c.whitelist ?? null,
        c.defaultCallback ?? null,
        c.mfa ?? null,
        c.captcha ?? null,
        c.smsPerHour !== undefined,
        c.smsPerHour ?? null,
        c.phonePrefixes ?? null,
      ],
    );
    const details: Record<string, unknown> = { changed: members };
    for (const m of SETTINGS_MEMBERS) if (c[m] !== undefined) details[m] = c[m];
    await auditStore(q).record({ ...who, action: UPDATE_ACTION, target: c.clientId, details });
    const data = { application: { client_id: c.clientId, changed: members } };
    await publishEvents(q, [newEvent("application.updated", c.clientId, data)]);
    return (await records.get(c.clientId))!;
  });
}

import { clone, toJson } from "@bufbuild/protobuf";
import type { AuditContext } from "@gatehouse/admin";
import type { Db, Queryable } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import { newEvent } from "@gatehouse/events";
import { EntrypointSchema, type Entrypoint, type FieldConfig, type Typologies } from "@gatehouse/proto";
import { auditStore } from "../audit/store.ts";
import { publishEvents } from "../webhooks/events.ts";
import { lockCatalogs } from "../catalogs/kinds.ts";
import { catalogStore } from "../catalogs/store.ts";
import { entrypointId } from "./client-ids.ts";
import { fillEntrypointDefaults } from "./defaults.ts";
import { applicationRecords } from "./records.ts";
import { MAX_ENTRYPOINTS, validateEntrypoint } from "./validate/entrypoints.ts";
import type { FieldRuleOptions } from "./validate/fields.ts";
import { newIssues } from "./validate/issues.ts";

// The operators' entry point operations (contract section 6): one entry point
// added or changed under every rule of application creation, with the
// application's row locked and the catalogs' keys held (no deletion can slip
// in), the audit entry in the same transaction.

export interface EntrypointChange {
  displayName?: string;
  assisted?: boolean;
  passwordless?: boolean;
  fields?: FieldConfig[];
  typology?: Typologies;
  identityProviders?: string[];
}

const summary = (ep: Entrypoint) => ({
  displayName: ep.displayName,
  fields: ep.fields.map((f) => `${f.type}:${f.key}`),
});

async function lockedApplication(q: Queryable, clientId: string) {
  await lockCatalogs(q, "reference");
  const record = await applicationRecords(q).get(clientId, true);
  if (!record?.application)
    throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: clientId } });
  return record.application;
}

export async function addEntrypoint(
  deps: { db: Db; options: FieldRuleOptions },
  clientId: string,
  input: Entrypoint,
  who: AuditContext,
  opts: { validateOnly?: boolean } = {},
): Promise<Entrypoint> {
  return deps.db.tx(async (q) => {
    const app = await lockedApplication(q, clientId);
    const issues = newIssues();
    validateEntrypoint(input, "", await catalogStore(q).snapshot(), deps.options, issues);
    if (app.entrypoints.length >= MAX_ENTRYPOINTS)
      issues.add("entrypoints", "too_many", `at most ${MAX_ENTRYPOINTS} entry points`);
    const position = app.entrypoints.length;
    const id = entrypointId(clientId, input, position);
    if (app.entrypoints.some((e) => e.id === id))
      issues.add("key", "duplicate", "another entry point of this application has the same id");
    if (issues.list.length) throw validationError(issues.list);
    if (opts.validateOnly) return input;

    const ep = clone(EntrypointSchema, input);
    ep.id = id;
    fillEntrypointDefaults(ep);
    const inserted = await q.query(
      `INSERT INTO registry.entrypoints (id, client_id, position, document) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (id) DO NOTHING`,
      [id, clientId, position, JSON.stringify(toJson(EntrypointSchema, ep))],
    );
    // The id of another application's entry point ("{a}_{b}" can be read two ways).
    if (inserted.rowCount === 0)
      throw validationError([{ field: "key", code: "duplicate", description: "that entry point id is taken" }]);
    await q.query("UPDATE registry.clients SET updated_at = now() WHERE client_id = $1", [clientId]);
    await auditStore(q).record({
      ...who,
      action: "entrypoint.create",
      target: id,
      details: { clientId, ...summary(ep) },
    });
    const data = { application: { client_id: clientId, changed: ["entrypoints"] } };
    await publishEvents(q, [newEvent("application.updated", clientId, data)]);
    return ep;
  });
}

export async function updateEntrypoint(
  deps: { db: Db; options: FieldRuleOptions },
  ids: { clientId: string; entrypointId: string },
  change: EntrypointChange,
  who: AuditContext,
  opts: { validateOnly?: boolean } = {},
): Promise<Entrypoint> {
  const members = (Object.keys(change) as (keyof EntrypointChange)[]).filter((k) => change[k] !== undefined);
  return deps.db.tx(async (q) => {
    const app = await lockedApplication(q, ids.clientId);
    const current = app.entrypoints.find((e) => e.id === ids.entrypointId);
    if (!current)
      throw domainError("ENTRYPOINT_NOT_FOUND", undefined, { metadata: { entrypoint_id: ids.entrypointId } });
    if (!members.length) return current;
    const ep = clone(EntrypointSchema, current);
    if (change.displayName !== undefined) ep.displayName = change.displayName;
    if (change.assisted !== undefined) ep.assisted = change.assisted;
    if (change.passwordless !== undefined) ep.passwordless = change.passwordless;
    if (change.fields !== undefined) ep.fields = [...change.fields];
    if (change.typology !== undefined) ep.typology = change.typology;
    if (change.identityProviders !== undefined) ep.identityProviders = [...change.identityProviders];

    const issues = newIssues();
    validateEntrypoint(ep, "", await catalogStore(q).snapshot(), deps.options, issues);
    const mine = issues.list.filter((v) => members.some((m) => v.field === m || v.field.startsWith(`${m}.`)));
    if (mine.length) throw validationError(mine);
    if (opts.validateOnly) return current;
    fillEntrypointDefaults(ep);
    await q.query("UPDATE registry.entrypoints SET document = $2::jsonb, updated_at = now() WHERE id = $1", [
      ep.id,
      JSON.stringify(toJson(EntrypointSchema, ep)),
    ]);
    await q.query("UPDATE registry.clients SET updated_at = now() WHERE client_id = $1", [ids.clientId]);
    await auditStore(q).record({
      ...who,
      action: "entrypoint.update",
      target: ep.id,
      details: { clientId: ids.clientId, changed: members, ...summary(ep) },
    });
    const data = { application: { client_id: ids.clientId, changed: ["entrypoints"] } };
    await publishEvents(q, [newEvent("application.updated", ids.clientId, data)]);
    return ep;
  });
}

import { isDeepStrictEqual } from "node:util";
import { create, toJson } from "@bufbuild/protobuf";
import type { AuditContext } from "@gatehouse/admin";
import type { Db, Queryable } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import { ApplicationSchema, EntrypointSchema, type Application, type Entrypoint } from "@gatehouse/proto";
import { CONSOLE_APPLICATION_ID, CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import { auditStore } from "../audit/store.ts";
import type { ClientSecrets } from "../credentials/secrets.ts";
import { fillEntrypointDefaults } from "./defaults.ts";
import { applicationStore } from "./store.ts";
import { isRedirectUri } from "../formats.ts";

/**
 * The console's entry point: email + password, assisted (operators are
 * created by the CLI or the bootstrap environment, never by a registration
 * form: its hosted registration page says so), its id the public client id.
 */
function consoleEntrypoint(): Entrypoint {
  const ep = create(EntrypointSchema, {
    id: CONSOLE_CLIENT_ID,
    objectType: "entrypoint",
    displayName: "Gatehouse console",
    key: "console",
    assisted: true,
    passwordless: false,
    fields: [
      { objectType: "fieldConfig", type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: false },
    ],
  });
  fillEntrypointDefaults(ep);
  return ep;
}

const person = (email: string, mobile?: string) => ({
  objectType: "person",
  schemaOrg: { email: { value: email }, ...(mobile ? { mobile: { value: mobile } } : {}) },
});

function consoleApplication(redirectUri: string): Application {
  return create(ApplicationSchema, {
    id: CONSOLE_APPLICATION_ID,
    objectType: "application",
    displayName: "Gatehouse console",
    // Where the activation page's "continue" link goes: the console itself.
    url: redirectUri.replace(/\/callback$/, ""),
    redirectUris: [redirectUri],
    // Placeholders under the reserved .invalid domain (RFC 2606): operators set real contacts with PATCH /admin/v1/apps/gatehouse.
    contact: {
      support: person("operators@gatehouse.invalid", "+10000000000"),
      projectManager: person("operators@gatehouse.invalid"),
      productOwner: person("operators@gatehouse.invalid"),
    },
    organizationSchemaOrg: { identifier: "default" },
    entrypoints: [consoleEntrypoint()],
  });
}

// jsonb keeps its own key order: compare values, not texts.
const sameJson = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** Brings an existing console application to the wanted redirect URI, policy and entry point; whether anything changed. */
async function reconcile(q: Queryable, app: Application): Promise<boolean> {
  const { rows } = await q.query<{ kind: string; redirect_uris: string[]; mfa: string }>(
    "SELECT kind, redirect_uris, mfa FROM registry.clients WHERE client_id = $1 FOR UPDATE",
    [app.id],
  );
  const row = rows[0];
  if (!row || row.kind !== "application")
    throw domainError("APPLICATION_ID_TAKEN", `client_id ${app.id} belongs to an operator client`);
  let changed = false;
  if (!sameJson(row.redirect_uris, app.redirectUris) || row.mfa !== "required") {
    // The document keeps its other members (an operator may have edited them); whitelist gains the new URI.
    await q.query(
      `UPDATE registry.clients
          SET redirect_uris = $2::text[], mfa = 'required', updated_at = now(),
              document = jsonb_set(document, '{redirectUris}', to_jsonb($2::text[])),
              whitelist = (SELECT array_agg(DISTINCT u) FROM unnest(whitelist || $2::text[]) u)
        WHERE client_id = $1`,
      [app.id, app.redirectUris],
    );
    changed = true;
  }
  const ep = app.entrypoints[0]!;
  const document = JSON.stringify(toJson(EntrypointSchema, ep));
  const { rows: eps } = await q.query<{ client_id: string; document: unknown }>(
    "SELECT client_id, document FROM registry.entrypoints WHERE id = $1",
    [ep.id],
  );
  const current = eps[0];
  if (current && current.client_id !== app.id)
    throw domainError("APPLICATION_ID_TAKEN", `entry point ${ep.id} belongs to another application`);
  if (!current) {
    const { rows: pos } = await q.query<{ next: number }>(
      "SELECT coalesce(max(position) + 1, 0) AS next FROM registry.entrypoints WHERE client_id = $1",
      [app.id],
    );
    await q.query(
      "INSERT INTO registry.entrypoints (id, client_id, position, document) VALUES ($1, $2, $3, $4::jsonb)",
      [ep.id, app.id, pos[0]!.next, document],
    );
    changed = true;
  } else if (!sameJson(current.document, JSON.parse(document))) {
    await q.query("UPDATE registry.entrypoints SET document = $2::jsonb, updated_at = now() WHERE id = $1", [
      ep.id,
      document,
    ]);
    changed = true;
  }
  return changed;
}

/**
 * The console's application (launcher, at every start): created when absent
 * (one of concurrent starts inserts it; the others find it), otherwise kept
 * at the configured redirect URI, MFA policy `required` and its entry
 * point. Each change is audited in its transaction.
 */
export async function ensureConsoleApplication(
  deps: { db: Db; secrets: ClientSecrets },
  redirectUri: string,
  who?: AuditContext,
): Promise<{ created: boolean; updated: boolean }> {
  if (!redirectUri) throw validationError([{ field: "redirectUri", code: "required" }]);
  if (!isRedirectUri(redirectUri)) throw validationError([{ field: "redirectUri", code: "invalid_format" }]);
  const app = consoleApplication(redirectUri);
  return deps.db.tx(async (q) => {
    const stored = deps.secrets.protect(app.id, deps.secrets.generate());
    const record = (action: string) =>
      who
        ? auditStore(q).record({ ...who, action, target: app.id, details: { redirectUris: app.redirectUris } })
        : undefined;
    const taken = await q.query("SELECT 1 FROM registry.entrypoints WHERE id = $1 AND client_id <> $2", [
      CONSOLE_CLIENT_ID,
      app.id,
    ]);
    if (taken.rowCount)
      throw domainError("APPLICATION_ID_TAKEN", `entry point ${CONSOLE_CLIENT_ID} belongs to another application`);
    const inserted = await applicationStore(q).insert({
      application: app,
      secretSealed: stored.sealed,
      secretMac: stored.mac,
    });
    if (inserted) {
      await q.query("UPDATE registry.clients SET mfa = 'required' WHERE client_id = $1", [app.id]);
      await record("console_application.create");
      return { created: true, updated: false };
    }
    // It exists (perhaps inserted concurrently: the insert waited for that commit).
    const updated = await reconcile(q, app);
    if (updated) await record("console_application.update");
    return { created: false, updated };
  });
}

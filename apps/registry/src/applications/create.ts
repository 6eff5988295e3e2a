import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import { newEvent } from "@gatehouse/events";
import type { Application } from "@gatehouse/proto";
import { auditStore } from "../audit/store.ts";
import { publishEvents } from "../webhooks/events.ts";
import { lockCatalogs } from "../catalogs/kinds.ts";
import { catalogStore, type CatalogStore } from "../catalogs/store.ts";
import type { ClientSecrets } from "../credentials/secrets.ts";
import { entrypointId, newClientId } from "./client-ids.ts";
import { withDefaults } from "./defaults.ts";
import { applicationStore, EntrypointIdTaken } from "./store.ts";
import { validateApplication, type FieldRuleOptions } from "./validate/index.ts";

// A 12-digit random id collides rarely; a few fresh draws make it vanishingly rare.
const MAX_ID_ATTEMPTS = 5;

export interface CreateApplicationDeps {
  db: Db;
  catalogs: CatalogStore;
  secrets: ClientSecrets;
  options: FieldRuleOptions;
}

export interface CreatedApplication {
  application: Application;
  /** The generated client secret, returned only here. */
  password: string;
}

/** Every rule of an application to create, nothing stored: VALIDATION_FAILED with every violation. */
export async function checkApplication(
  deps: Pick<CreateApplicationDeps, "catalogs" | "options">,
  input: Application,
): Promise<void> {
  const violations = validateApplication(input, await deps.catalogs.snapshot(), deps.options);
  if (violations.length) throw validationError(violations);
}

/** Validates, fills in defaults, assigns ids and a secret, and stores the application with its entry points. */
export async function createApplication(
  deps: CreateApplicationDeps,
  input: Application,
  who?: AuditContext,
): Promise<CreatedApplication> {
  await checkApplication(deps, input);
  const password = deps.secrets.generate();
  for (let attempt = 1; ; attempt++) {
    const app = withDefaults(input);
    app.id = newClientId(input.key);
    app.entrypoints.forEach((ep, i) => (ep.id = entrypointId(app.id, ep, i)));
    const stored = deps.secrets.protect(app.id, password);
    try {
      const times = await deps.db.tx(async (q) => {
        // The catalogs' keys are held until the commit: no deletion slips between the check and the insert.
        await lockCatalogs(q, "reference");
        const stale = validateApplication(input, await catalogStore(q).snapshot(), deps.options);
        if (stale.length) throw validationError(stale);
        const inserted = await applicationStore(q).insert({
          application: app,
          secretSealed: stored.sealed,
          secretMac: stored.mac,
        });
        if (inserted) {
          const data = { application: { client_id: app.id, entrypoints: app.entrypoints.map((e) => e.id) } };
          await publishEvents(q, [newEvent("application.created", app.id, data)]);
        }
        if (inserted && who) {
          const details = { displayName: app.displayName, entrypoints: app.entrypoints.map((e) => e.id) };
          await auditStore(q).record({ ...who, action: "application.create", target: app.id, details });
        }
        return inserted;
      });
      if (times) {
        app.createTime = timestampFromDate(new Date(times.createdAt));
        app.updateTime = timestampFromDate(new Date(times.updatedAt));
        return { application: app, password };
      }
    } catch (err) {
      if (!(err instanceof EntrypointIdTaken)) throw err;
    }
    if (attempt >= MAX_ID_ATTEMPTS) throw new Error(`no free client_id after ${MAX_ID_ATTEMPTS} attempts`);
  }
}

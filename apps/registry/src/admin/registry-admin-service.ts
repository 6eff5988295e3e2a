import type { ServiceImpl } from "@connectrpc/connect";
import { auditContext, listAuditEntries, pageOf, pageSize, readKeyCursor } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import type { RegistryAdminService } from "@gatehouse/proto";
import type { RegistryNotify } from "@gatehouse/rpc";
import { addEntrypoint, updateEntrypoint } from "../applications/entrypoint-admin.ts";
import { applicationRecords } from "../applications/records.ts";
import { updateApplication } from "../applications/update.ts";
import type { FieldRuleOptions } from "../applications/validate/index.ts";
import { assertionHistory } from "../assertions/history.ts";
import { toLegalAssertion } from "../assertions/assertions-service.ts";
import { AUDIT_TABLE } from "../audit/store.ts";
import {
  checkNewCatalogEntry,
  createCatalogEntry,
  deleteCatalogEntry,
  getCatalogEntry,
  listCatalogEntries,
  updateCatalogEntry,
} from "../catalogs/admin.ts";
import { catalogKindName } from "../catalogs/kinds.ts";
import type { CatalogEntryRow } from "../catalogs/store.ts";
import { rotateClientSecret } from "../credentials/rotate.ts";
import type { ClientSecrets } from "../credentials/secrets.ts";

export interface RegistryAdminDeps {
  db: Db;
  secrets: ClientSecrets;
  options: FieldRuleOptions;
  logger: Logger;
  /** Tells other services' caches (entry points, client authentications, catalogs' formats) what changed. */
  notify?: RegistryNotify;
}

function required(field: string, value: string): string {
  if (!value) throw validationError([{ field, code: "required" }]);
  return value;
}

const entryOut = (e: CatalogEntryRow) => ({ key: e.key, displayName: e.displayName, valueType: e.valueType ?? "" });

/** RegistryAdminService over the domain modules: maps requests in and results out, tells the caches. */
export function createRegistryAdminService(deps: RegistryAdminDeps): ServiceImpl<typeof RegistryAdminService> {
  const { db } = deps;
  const changed = (clientId: string) => deps.notify?.("application", clientId);
  return {
    async listApplications(req) {
      const size = pageSize(req.pageSize);
      if (req.query.length > 200) throw validationError([{ field: "q", code: "too_long" }]);
      const rows = await applicationRecords(db).search(req.query.trim(), readKeyCursor(req.pageToken), size + 1);
      const page = pageOf(rows, size, (r) => r.application!.id);
      return { applications: page.items, nextPageToken: page.next };
    },

    async getApplicationRecord(req) {
      const record = await applicationRecords(db).get(required("clientId", req.clientId));
      if (!record) throw domainError("APPLICATION_NOT_FOUND", undefined, { metadata: { client_id: req.clientId } });
      return { application: record };
    },

    async updateApplication(req, ctx) {
      const c = req.contact;
      const record = await updateApplication(
        db,
        {
          clientId: required("clientId", req.clientId),
          displayName: req.displayName,
          url: req.url,
          redirectUris: req.redirectUris?.values,
          contact: c && { support: c.support, projectManager: c.projectManager, productOwner: c.productOwner },
          whitelist: req.whitelist?.values,
          defaultCallback: req.defaultCallback,
          mfa: req.mfa,
          captcha: req.captcha,
          smsPerHour: req.smsPerHour ? (req.smsPerHour.value ?? null) : undefined,
          phonePrefixes: req.phonePrefixes?.values,
          validateOnly: req.validateOnly,
        },
        auditContext(ctx),
      );
      if (!req.validateOnly) await changed(req.clientId);
      return { application: record };
    },

    async rotateClientSecret(req, ctx) {
      const who = auditContext(ctx);
      const done = await rotateClientSecret(db, deps.secrets, required("clientId", req.clientId), who);
      deps.logger.info({ clientId: req.clientId, actor: who.actor, version: done.version }, "client secret rotated");
      await changed(req.clientId);
      return { clientSecret: done.secret, secretVersion: done.version };
    },

    async addEntrypoint(req, ctx) {
      if (!req.entrypoint) throw validationError([{ field: "entrypoint", code: "required" }]);
      const entrypoint = await addEntrypoint(
        deps,
        required("clientId", req.clientId),
        req.entrypoint,
        auditContext(ctx),
        { validateOnly: req.validateOnly },
      );
      if (req.validateOnly) return { entrypoint };
      await changed(req.clientId);
      return { entrypoint };
    },

    async updateEntrypoint(req, ctx) {
      const ids = {
        clientId: required("clientId", req.clientId),
        entrypointId: required("entrypointId", req.entrypointId),
      };
      const change = {
        displayName: req.displayName,
        assisted: req.assisted,
        passwordless: req.passwordless,
        fields: req.fields?.values,
        typology: req.typology,
        identityProviders: req.identityProviders?.values,
      };
      const entrypoint = await updateEntrypoint(deps, ids, change, auditContext(ctx), {
        validateOnly: req.validateOnly,
      });
      if (req.validateOnly) return { entrypoint };
      await changed(req.clientId);
      return { entrypoint };
    },

    async listCatalogEntries(req) {
      const page = await listCatalogEntries(db, catalogKindName(req.kind), {
        size: req.pageSize,
        cursor: req.pageToken,
      });
      return { entries: page.items.map(entryOut), nextPageToken: page.next };
    },

    async getCatalogEntry(req) {
      return { entry: entryOut(await getCatalogEntry(db, catalogKindName(req.kind), required("key", req.key))) };
    },

    async createCatalogEntry(req, ctx) {
      const e = req.entry;
      const input = { key: e?.key ?? "", displayName: e?.displayName ?? "", valueType: e?.valueType || null };
      if (req.validateOnly) {
        checkNewCatalogEntry(catalogKindName(req.kind), input);
        return {};
      }
      const created = await createCatalogEntry(db, catalogKindName(req.kind), input, auditContext(ctx));
      await deps.notify?.("catalog", catalogKindName(req.kind));
      return { entry: entryOut(created) };
    },

    async updateCatalogEntry(req, ctx) {
      const kind = catalogKindName(req.kind);
      const entry = await updateCatalogEntry(
        db,
        kind,
        required("key", req.key),
        { displayName: req.displayName, valueType: req.valueType },
        auditContext(ctx),
      );
      await deps.notify?.("catalog", kind);
      return { entry: entryOut(entry) };
    },

    async deleteCatalogEntry(req, ctx) {
      await deleteCatalogEntry(db, catalogKindName(req.kind), required("key", req.key), auditContext(ctx));
      await deps.notify?.("catalog", catalogKindName(req.kind));
      return {};
    },

    async listAssertionHistory(req) {
      const page = await assertionHistory(db, { typology: req.typology, size: req.pageSize, cursor: req.pageToken });
      return {
        assertions: page.items.map((a) => ({ key: a.key, versions: a.versions.map(toLegalAssertion) })),
        nextPageToken: page.next,
      };
    },

    async listRegistryAuditEntries(req) {
      return listAuditEntries(db, AUDIT_TABLE, req);
    },
  };
}

import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import { LegalAssertionSchema, type AssertionsService, type LegalAssertion } from "@gatehouse/proto";
import { auditContext } from "@gatehouse/admin";
import {
  ADMIN_READ_SCOPES,
  ADMIN_WRITE_SCOPES,
  INTERNAL_SCOPE,
  type RegistryNotify,
  type ScopePolicy,
} from "@gatehouse/rpc";
import type { CatalogStore } from "../catalogs/store.ts";
import { checkAssertion, publishAssertion } from "./publish.ts";
import { assertionStore, type AssertionRow } from "./store.ts";

/** Operators publish and read; the users service reads (login 451, answers). */
export const assertionsPolicy: ScopePolicy = {
  publishAssertion: ADMIN_WRITE_SCOPES,
  listAssertions: [...ADMIN_READ_SCOPES, INTERNAL_SCOPE],
  getAssertion: [...ADMIN_READ_SCOPES, INTERNAL_SCOPE],
};

export interface AssertionsServiceDeps {
  db: Db;
  catalogs: CatalogStore;
  logger: Logger;
  /** Tells other services' caches that the catalog changed. */
  notify?: RegistryNotify;
}

const MAX_TYPOLOGY_FILTER = 50;

export function toLegalAssertion(r: AssertionRow): LegalAssertion {
  return create(LegalAssertionSchema, {
    key: r.key,
    displayName: r.displayName,
    type: r.type,
    typology: r.typology,
    property: r.property,
    mandatory: r.mandatory,
    version: r.version,
    publishTime: timestampFromDate(r.publishedAt),
  });
}

/** AssertionsService over the legal-assertion catalog: maps requests in and rows out. */
export function createAssertionsService(deps: AssertionsServiceDeps): ServiceImpl<typeof AssertionsService> {
  return {
    async publishAssertion(req, ctx) {
      const a = req.assertion;
      if (!a) throw validationError([{ field: "assertion", code: "required" }]);
      if (req.validateOnly) {
        const violations = checkAssertion(a, await deps.catalogs.snapshot());
        if (violations.length) throw validationError(violations);
        return {};
      }
      const who = auditContext(ctx);
      const stored = await publishAssertion(deps.db, await deps.catalogs.snapshot(), a, who);
      deps.logger.info({ key: stored.key, version: stored.version, actor: who.actor }, "legal assertion published");
      await deps.notify?.("assertions", stored.key);
      return { assertion: toLegalAssertion(stored) };
    },

    async listAssertions(req) {
      if (req.typologies.length > MAX_TYPOLOGY_FILTER)
        throw validationError([{ field: "typologies", code: "too_many" }]);
      const rows = await assertionStore(deps.db).latest(req.typologies);
      return { assertions: rows.map(toLegalAssertion) };
    },

    async getAssertion(req) {
      if (!req.key) throw validationError([{ field: "key", code: "required" }]);
      const rows = await assertionStore(deps.db).versions(req.key);
      if (!rows.length) throw domainError("ASSERTION_NOT_FOUND", undefined, { metadata: { key: req.key } });
      return { versions: rows.map(toLegalAssertion) };
    },
  };
}

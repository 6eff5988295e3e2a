import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Db } from "@gatehouse/db";
import { validationError } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import { ApplicationSchema, ClientKind, RegistryService } from "@gatehouse/proto";
import { CONSOLE_APPLICATION_ID, CONSOLE_CLIENT_ID, type RegistryNotify } from "@gatehouse/rpc";
import { auditContext } from "@gatehouse/admin";
import { ensureConsoleApplication } from "./applications/console.ts";
import { checkApplication, createApplication } from "./applications/create.ts";
import { getApplication, getEntrypoint } from "./applications/read.ts";
import { updateApplicationSettings } from "./applications/settings.ts";
import type { FieldRuleOptions } from "./applications/validate/index.ts";
import { catalogKindName } from "./catalogs/kinds.ts";
import type { CatalogStore } from "./catalogs/store.ts";
import { authenticateClient } from "./credentials/authenticate.ts";
import { ensureOperatorClient } from "./credentials/operator.ts";
import { revealClientSecret } from "./credentials/reveal.ts";
import type { ClientSecrets } from "./credentials/secrets.ts";
import { credentialStore } from "./credentials/store.ts";

export interface RegistryServiceDeps {
  /** Tells other services' caches that an application changed. */
  notify?: RegistryNotify;
  db: Db;
  catalogs: CatalogStore;
  secrets: ClientSecrets;
  options: FieldRuleOptions;
  logger: Logger;
}

const clientKinds = { application: ClientKind.APPLICATION, operator: ClientKind.OPERATOR } as const;

/** An id the request must carry; its JSON name is the violation's field. */
function requireId(field: string, value: string): void {
  if (!value) throw validationError([{ field, code: "required" }]);
}

/** RegistryService over the domain modules: maps requests in and results out, nothing more. */
export function createRegistryService(deps: RegistryServiceDeps): ServiceImpl<typeof RegistryService> {
  const { db, secrets } = deps;
  return {
    async createApplication(req, ctx) {
      if (req.validateOnly) {
        await checkApplication(deps, req.application ?? create(ApplicationSchema));
        return {};
      }
      const created = await createApplication(deps, req.application ?? create(ApplicationSchema), auditContext(ctx));
      deps.logger.info({ clientId: created.application.id }, "application created");
      // New redirect URIs: the gateways' CORS origins of relying parties change.
      await deps.notify?.("application", created.application.id);
      return { application: created.application, password: created.password };
    },

    async getApplication(req) {
      requireId("clientId", req.clientId);
      return { application: await getApplication(db, req.clientId) };
    },

    async getEntrypoint(req) {
      requireId("entrypointId", req.entrypointId);
      const found = await getEntrypoint(db, req.entrypointId);
      return {
        entrypoint: found.entrypoint,
        clientId: found.clientId,
        whitelist: found.whitelist,
        defaultCallback: found.defaultCallback,
        mfa: found.mfa,
        captcha: found.captcha,
        smsPerHour: found.smsPerHour,
        phonePrefixes: found.phonePrefixes,
      };
    },

    async authenticateClient(req) {
      const client = await authenticateClient(credentialStore(db), secrets, req.clientId, req.clientSecret);
      return {
        clientId: client.clientId,
        kind: clientKinds[client.kind],
        allowedScopes: [...client.allowedScopes],
        redirectUris: client.redirectUris,
        secretVersion: client.secretVersion,
      };
    },

    async revealClientSecret(req, ctx) {
      requireId("clientId", req.clientId);
      const who = auditContext(ctx);
      const clientSecret = await revealClientSecret(db, secrets, {
        clientId: req.clientId,
        reason: req.reason,
        ...who,
      });
      deps.logger.info({ clientId: req.clientId, actor: who.actor }, "client secret revealed");
      return { clientSecret };
    },

    async ensureOperatorClient(req, ctx) {
      const op = await ensureOperatorClient(
        db,
        secrets,
        { clientId: req.clientId, clientSecret: req.clientSecret, displayName: req.displayName },
        auditContext(ctx),
      );
      if (op.created) deps.logger.info({ clientId: op.clientId }, "operator client written");
      // A rotated operator secret: the auth services drop what they cached.
      if (op.created) await deps.notify?.("application", op.clientId);
      return op;
    },

    async updateApplicationSettings(req, ctx) {
      requireId("clientId", req.clientId);
      const who = auditContext(ctx);
      const settings = await updateApplicationSettings(
        db,
        {
          clientId: req.clientId,
          whitelist: req.whitelist?.values,
          defaultCallback: req.defaultCallback,
          mfa: req.mfa,
        },
        who,
      );
      deps.logger.info({ clientId: req.clientId, actor: who.actor }, "application settings updated");
      await deps.notify?.("application", req.clientId);
      return { settings };
    },

    async ensureConsoleApplication(req, ctx) {
      const done = await ensureConsoleApplication(deps, req.redirectUri, auditContext(ctx));
      if (done.created || done.updated) {
        deps.logger.info(
          { clientId: CONSOLE_APPLICATION_ID, redirectUri: req.redirectUri, created: done.created },
          "console application written",
        );
        await deps.notify?.("application", CONSOLE_APPLICATION_ID);
      }
      return { clientId: CONSOLE_APPLICATION_ID, entrypointId: CONSOLE_CLIENT_ID, ...done };
    },

    async listCatalog(req) {
      const entries = await deps.catalogs.list(catalogKindName(req.kind));
      return {
        entries: entries.map((e) => ({ key: e.key, displayName: e.displayName, valueType: e.valueType ?? "" })),
      };
    },
  };
}

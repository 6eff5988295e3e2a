import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import Type, { type Static } from "typebox";
import type { IdentityProvider } from "@gatehouse/proto";
import type { Wired } from "../../deps.ts";
import { asOperator, bodyless } from "../../http/admin-call.ts";
import { withRuleViolations } from "../../http/all-violations.ts";
import { sendContent } from "../../http/envelope.ts";
import { IDP_CALLBACK_PATH } from "../../hosted/paths.ts";
import { ContentOf, ListOf } from "../../schemas/admin.ts";
import { errorResponses, ScQuery } from "../../schemas/common.ts";
import { IdentityProviderOut, IdentityProviderPatch, NewIdentityProvider } from "../../schemas/identity-providers.ts";

const admin = { tags: ["admin"], security: [{ bearer: [] }] };
const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) });
const iso = (t: Timestamp | undefined) => (t ? timestampDate(t) : new Date(0)).toISOString();

/** One provider as the admin API shows it: no secret, with the callback URL to register with the provider. */
function providerToJson(p: IdentityProvider, callbackUrl: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    key: p.key,
    displayName: p.displayName,
    type: p.type,
    clientId: p.clientId,
    scopes: p.scopes,
    trustEmail: p.trustEmail,
    hasClientSecret: p.hasClientSecret,
    callbackUrl,
    created: iso(p.createdAt),
    updated: iso(p.updatedAt),
  };
  if (p.preset) out.preset = p.preset;
  if (p.type === "oidc") out.issuer = p.issuer;
  else {
    out.authorizationEndpoint = p.authorizationEndpoint;
    out.tokenEndpoint = p.tokenEndpoint;
    out.userinfoEndpoint = p.userinfoEndpoint;
    out.claims = p.claims;
  }
  return out;
}

/** /admin/v1/identity-providers: the upstream providers of social sign-in (contract section 11), audited. */
export const adminIdentityProviderRoutes: FastifyPluginAsyncTypebox<Wired<"identityProviders">> = async (app, deps) => {
  const providers = deps.identityProviders;
  const callbackUrl = `${deps.config.publicAuthUrl}${IDP_CALLBACK_PATH}`;
  const json = (p: IdentityProvider | undefined) => providerToJson(p!, callbackUrl);

  app.get(
    "/admin/v1/identity-providers",
    {
      schema: {
        ...admin,
        summary: "List the identity providers in key order",
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 200: ListOf(IdentityProviderOut), ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const res = await providers.listIdentityProviders({}, asOperator(req));
      return sendContent(reply, 200, { items: res.providers.map(json) });
    },
  );

  app.post(
    "/admin/v1/identity-providers",
    {
      // A body the schema refuses still gets the registry's rules checked (every violation at once).
      attachValidation: true,
      schema: {
        ...admin,
        summary: "Register an identity provider (an OIDC issuer must answer; the secret is stored encrypted; audited)",
        querystring: ScQuery,
        body: NewIdentityProvider,
        response: { 201: ContentOf(IdentityProviderOut), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const create = (b: Static<typeof NewIdentityProvider>, validateOnly = false) =>
        providers.createIdentityProvider(
          {
            provider: {
              key: b.key ?? "",
              displayName: b.displayName ?? "",
              type: b.type ?? "",
              preset: b.preset ?? "",
              issuer: b.issuer ?? "",
              clientId: b.clientId ?? "",
              scopes: b.scopes ?? [],
              trustEmail: b.trustEmail ?? false,
              authorizationEndpoint: b.authorizationEndpoint ?? "",
              tokenEndpoint: b.tokenEndpoint ?? "",
              userinfoEndpoint: b.userinfoEndpoint ?? "",
              claims: b.claims ?? {},
            },
            clientSecret: b.clientSecret ?? "",
            validateOnly,
          },
          asOperator(req),
        );
      if (req.validationError)
        throw await withRuleViolations(req.validationError, req.body, (rest) =>
          create(rest as Static<typeof NewIdentityProvider>, true),
        );
      const res = await create(req.body);
      reply.header("location", `/admin/v1/identity-providers/${encodeURIComponent(res.provider!.key)}`);
      return sendContent(reply, 201, json(res.provider));
    },
  );

  app.get(
    "/admin/v1/identity-providers/:key",
    {
      schema: {
        ...admin,
        summary: "Read one identity provider (never its secret)",
        params: KeyParams,
        response: { 200: ContentOf(IdentityProviderOut), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const res = await providers.getIdentityProvider({ key: req.params.key }, asOperator(req));
      return sendContent(reply, 200, json(res.provider));
    },
  );

  app.patch(
    "/admin/v1/identity-providers/:key",
    {
      schema: {
        ...admin,
        summary: "Change an identity provider (a changed issuer must answer; audited)",
        params: KeyParams,
        querystring: ScQuery,
        body: IdentityProviderPatch,
        response: { 200: ContentOf(IdentityProviderOut), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const res = await providers.updateIdentityProvider(
        {
          key: req.params.key,
          displayName: b.displayName,
          issuer: b.issuer,
          clientId: b.clientId,
          clientSecret: b.clientSecret,
          scopes: b.scopes ? { values: b.scopes } : undefined,
          trustEmail: b.trustEmail,
          authorizationEndpoint: b.authorizationEndpoint,
          tokenEndpoint: b.tokenEndpoint,
          userinfoEndpoint: b.userinfoEndpoint,
          claims: b.claims ? { values: b.claims } : undefined,
        },
        asOperator(req),
      );
      return sendContent(reply, 200, json(res.provider));
    },
  );

  app.delete(
    "/admin/v1/identity-providers/:key",
    {
      ...bodyless,
      schema: {
        ...admin,
        summary: "Remove an identity provider that no entry point offers (409 in_use otherwise; audited)",
        params: KeyParams,
        response: { 204: Type.Null({ description: "Removed" }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      await providers.deleteIdentityProvider({ key: req.params.key }, asOperator(req));
      return reply.code(204).send(null);
    },
  );
};

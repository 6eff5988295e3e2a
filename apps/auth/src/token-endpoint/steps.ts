import { domainError } from "@gatehouse/errors";
import { authenticateClient as checkCredentials } from "../clients/authenticate-client.ts";
import { fromEarlierStep, type TokenStep } from "./context.ts";

/**
 * RFC 6749 section 2.3: a confidential client authenticates; a public client
 * (an entry point id, method none) names itself (section 3.2.1).
 */
export const authenticateClient: TokenStep = async (ctx) => {
  ctx.client = await checkCredentials(ctx.deps.clients, ctx.request.client, { allowPublic: true });
};

/** RFC 6749 section 5.2: grant_type names a registered grant. */
export const selectGrant: TokenStep = async (ctx) => {
  const grantType = ctx.request.grantType;
  if (!grantType) throw domainError("INVALID_REQUEST", "grant_type is required");
  const grant = ctx.deps.grants.get(grantType);
  if (!grant) {
    const supported = [...ctx.deps.grants.keys()].join(", ");
    throw domainError(
      "UNSUPPORTED_GRANT_TYPE",
      `grant_type ${JSON.stringify(grantType.slice(0, 64))} is not supported (supported: ${supported})`,
    );
  }
  if (ctx.client?.kind === "public" && !grant.publicClients) {
    throw domainError("UNAUTHORIZED_CLIENT", `a public client cannot use grant_type ${grant.grantType}`);
  }
  ctx.grant = grant;
};

/**
 * Keeps the grant's own parameters. Empty values count as absent (RFC 6749
 * section 3.1); unknown parameters are ignored (section 3.2) unless the grant
 * forbids them.
 */
export const checkParameters: TokenStep = async (ctx) => {
  const grant = fromEarlierStep(ctx.grant, "grant");
  const given = (name: string) => {
    const v = Object.hasOwn(ctx.request.parameters, name) ? ctx.request.parameters[name] : undefined;
    return v === undefined || v === "" ? undefined : v;
  };
  const forbidden = grant.parameters.forbidden.filter((p) => given(p) !== undefined);
  if (forbidden.length) {
    throw domainError("INVALID_REQUEST", `not allowed with grant_type ${grant.grantType}: ${forbidden.join(", ")}`);
  }
  const missing = grant.parameters.required.filter((p) => given(p) === undefined);
  if (missing.length) throw domainError("INVALID_REQUEST", `missing required parameter: ${missing.join(", ")}`);
  const params: Record<string, string> = {};
  for (const name of [...grant.parameters.required, ...grant.parameters.optional]) {
    const v = given(name);
    if (v !== undefined) params[name] = v;
  }
  ctx.params = params;
};

/** The grant's own rules, then the token response. */
export const runGrant: TokenStep = async (ctx) => {
  const grant = fromEarlierStep(ctx.grant, "grant");
  ctx.response = await grant.handler({
    client: fromEarlierStep(ctx.client, "client"),
    params: fromEarlierStep(ctx.params, "params"),
    tokens: ctx.deps.tokens,
    sessions: ctx.deps.sessions,
    codes: ctx.deps.codes,
    devices: ctx.deps.devices,
    idTokens: ctx.deps.idTokens,
    ...(ctx.deps.logger ? { logger: ctx.deps.logger } : {}),
  });
};

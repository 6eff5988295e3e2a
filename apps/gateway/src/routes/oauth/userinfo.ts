import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { errorFacts } from "@gatehouse/errors";
import type { User } from "@gatehouse/proto";
import type { Wired } from "../../deps.ts";
import { bearerToken } from "../../http/bearer.ts";
import { bearerChallenge, type BearerError } from "../../http/bearer-challenge.ts";
import { sendOAuthRpcError } from "../../http/oauth-error.ts";
import { isUserToken } from "../../http/user-token.ts";
import { otherMethods } from "../../oauth/methods.ts";

/** RFC 6750 section 3: the error in a Bearer challenge and in the body, no-store. */
function bearerError(reply: FastifyReply, status: 401 | 403, error: BearerError, description: string, scope?: string) {
  return reply
    .code(status)
    .headers({ "www-authenticate": bearerChallenge(error, description, scope), "cache-control": "no-store" })
    .send({ error, error_description: description });
}

/** A data field's value as JSON, when it is a non-empty string. */
function text(user: User, key: string): string | undefined {
  const v = user.datas[key]?.value;
  const json = v ? toJson(ValueSchema, v) : undefined;
  return typeof json === "string" && json !== "" ? json : undefined;
}

/**
 * The OpenID Connect claims of a user for the granted scopes (Core section
 * 5.4): `email` gives email and email_verified, `profile` the profile claims
 * the entry point's data holds (name, family_name = surname and second
 * surname, nickname, birthdate, gender, locale) and updated_at.
 */
export function userClaims(user: User, scopes: ReadonlySet<string>): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.id };
  const email = user.ids.email;
  if (scopes.has("email") && email) Object.assign(claims, { email: email.value, email_verified: email.confirmed });
  if (scopes.has("profile")) {
    const family = [text(user, "surname"), text(user, "second_surname")].filter(Boolean).join(" ");
    const profile: Record<string, unknown> = {
      name: text(user, "name"),
      family_name: family || undefined,
      nickname: text(user, "nickname"),
      birthdate: text(user, "birthday"),
      gender: text(user, "gender"),
      locale: text(user, "locale"),
      updated_at: user.updateTime ? Number(user.updateTime.seconds) : undefined,
    };
    for (const [k, v] of Object.entries(profile)) if (v !== undefined) claims[k] = v;
  }
  return claims;
}

/** GET and POST /oauth2/userinfo (OpenID Connect Core 5.3): a user's access token with the openid scope. */
export const userinfoRoutes: FastifyPluginAsync<Wired<"users">> = async (app, deps) => {
  async function userinfo(req: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(req);
    if (!token) return bearerError(reply, 401, "invalid_token", "an access token is required (Authorization: Bearer)");
    const p = deps.verifyAccessToken ? await deps.verifyAccessToken(token) : undefined;
    // An application's own token (subject = client) is not a user's.
    if (!p || !isUserToken(p))
      return bearerError(reply, 401, "invalid_token", "the access token is invalid, expired or revoked");
    if (!p.scopes.has("openid"))
      return bearerError(reply, 403, "insufficient_scope", "the openid scope is required", "openid");
    try {
      const { user } = await deps.users.getUser({ userId: p.subject });
      return reply.header("cache-control", "no-store").send(userClaims(user!, p.scopes));
    } catch (err) {
      if (errorFacts(err).reason === "USER_NOT_FOUND")
        return bearerError(reply, 401, "invalid_token", "the user no longer exists");
      return sendOAuthRpcError(reply, err, false);
    }
  }
  const schema = { summary: "OpenID Connect UserInfo", tags: ["oauth"], security: [{ bearer: [] }] };
  app.get("/oauth2/userinfo", { config: { oauth: true }, schema }, userinfo);
  app.post("/oauth2/userinfo", { config: { oauth: true }, schema }, userinfo);
  otherMethods(app, "/oauth2/userinfo", ["GET", "POST"]);
};

import type { FastifyPluginAsync } from "fastify";
import { wired, type Wired } from "../../deps.ts";
import { requireJsonAccept } from "../../http/accept.ts";
import { accessMfaRoute } from "./access-mfa.ts";
import { accessCodeRoute } from "./access-code.ts";
import { accessPasskeyRoute } from "./access-passkey.ts";
import { accessRoute } from "./access.ts";
import { confirmRoutes } from "./confirm.ts";
import { identitiesRoute } from "./identities.ts";
import { logoutRoute } from "./logout.ts";
import { mfaRoutes } from "./mfa.ts";
import { passkeyRoutes } from "./passkeys.ts";
import { registerRoute } from "./register.ts";
import { resendRoute } from "./resend.ts";
import { updateRoutes } from "./update.ts";

/** {base_url}/activityid/v1: the user operations (the composition registers them when the users service is wired). */
export const activityIdRoutes: FastifyPluginAsync<Wired<"users">> = async (app, deps) => {
  // The user operations answer JSON only (spec: Accept application/json); pages are GETs.
  app.addHook("onRequest", requireJsonAccept);
  await app.register(registerRoute, deps);
  await app.register(accessRoute, deps);
  await app.register(accessCodeRoute, deps);
  await app.register(confirmRoutes, deps);
  await app.register(resendRoute, deps);
  await app.register(updateRoutes, deps);
  await app.register(logoutRoute, deps);
  await app.register(identitiesRoute, deps);
  if (wired(deps, "mfa")) {
    await app.register(accessMfaRoute, deps);
    await app.register(mfaRoutes, deps);
  }
  if (wired(deps, "passkeys")) {
    await app.register(accessPasskeyRoute, deps);
    await app.register(passkeyRoutes, deps);
  }
};

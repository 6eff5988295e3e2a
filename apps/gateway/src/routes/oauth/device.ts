import type { FastifyPluginAsync } from "fastify";
import type { Wired } from "../../deps.ts";
import { devicePages } from "../../hosted/index.ts";
import { DEVICE_CALLBACK_PATH, DEVICE_PATH } from "../../hosted/paths.ts";
import type { OAuthClients } from "../../oauth/applications.ts";
import { authorizationParams } from "../../oauth/authorization-request.ts";

/**
 * {auth_url}/device, the RFC 8628 verification URI (contract section 13):
 * the person enters a device's user code, signs in through the entry
 * point's hosted login and approves or denies (hosted/device).
 */
export const devicePageRoutes: FastifyPluginAsync<
  Wired<"users" | "hostedLoginKey" | "devices"> & { clients: OAuthClients }
> = async (app, deps) => {
  const pages = devicePages(deps);
  const schema = { summary: "Device verification page (RFC 8628)", tags: ["oauth"] };
  app.get(DEVICE_PATH, { schema }, (req, reply) => pages.show(req, reply));
  app.post(DEVICE_PATH, { schema }, (req, reply) => {
    const { params, repeated } = authorizationParams(req.body);
    // A repeated field is not a form of ours: the token check fails and the page says start again.
    return pages.submit(req, reply, repeated.length ? {} : params);
  });
  app.get(DEVICE_CALLBACK_PATH, { schema: { ...schema, summary: "Device sign-in callback" } }, (req, reply) =>
    pages.callback(req, reply),
  );
};

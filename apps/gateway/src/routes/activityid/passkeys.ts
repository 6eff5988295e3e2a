import type { JsonObject } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Passkey } from "@gatehouse/proto";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { bodyless, noBody } from "../../http/admin-call.ts";
import { requireBearer } from "../../http/bearer-guard.ts";
import { sendContent } from "../../http/envelope.ts";
import { userToken } from "../../http/user-token.ts";
import { errorResponses } from "../../schemas/common.ts";
import {
  PasskeyContent,
  PasskeyEnrolBody,
  PasskeyRenameBody,
  PasskeysContent,
  PublicKeyContent,
} from "../../schemas/passkeys.ts";

/** `content.passkey` (contract section 12). */
export const passkeyOut = (p: Passkey) => ({
  id: p.id,
  name: p.name,
  created: p.createTime ? timestampDate(p.createTime).toISOString() : "",
  lastUsed: p.lastUseTime ? timestampDate(p.lastUseTime).toISOString() : null,
});

// Any form: an id that was never a passkey's is 404 like another user's (docs/api.md), not 400.
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

/**
 * {base_url}/activityid/v1/user/passkeys (contract section 12), with the
 * user's ACCESS_TOKEN: creation options (their challenge works once, 5
 * minutes), enrol a passkey from the authenticator's answer, list, rename,
 * remove. The users service checks the ceremony (`apps/users/src/passkeys/`).
 */
export const passkeyRoutes: FastifyPluginAsyncTypebox<Wired<"passkeys">> = async (app, deps) => {
  const common = { tags: ["users"], security: [{ bearer: [] }] };
  const onRequest = requireBearer(deps.verifyAccessToken, userToken);

  app.post(
    "/activityid/v1/user/passkeys/options",
    {
      // No body or `{}` (docs/api.md): a bare POST is not a malformed request.
      onRequest: [noBody, onRequest],
      preValidation: bodyless.preValidation,
      schema: {
        ...common,
        summary: "Creation options for a new passkey (no body, or {})",
        response: { 200: PublicKeyContent, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const res = await deps.passkeys.beginPasskeyEnrolment({ userId: req.principal!.subject });
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { publicKey: res.publicKey });
    },
  );

  app.post(
    "/activityid/v1/user/passkeys",
    {
      onRequest,
      schema: {
        ...common,
        summary: "Enrol a passkey",
        body: PasskeyEnrolBody,
        response: { 201: PasskeyContent, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const res = await deps.passkeys.enrolPasskey({
        userId: req.principal!.subject,
        name: req.body.name ?? "",
        credential: req.body.credential as JsonObject,
      });
      return sendContent(reply, 201, { passkey: passkeyOut(res.passkey!) });
    },
  );

  app.get(
    "/activityid/v1/user/passkeys",
    {
      onRequest,
      schema: {
        ...common,
        summary: "List the user's passkeys",
        response: { 200: PasskeysContent, ...errorResponses(401, 404) },
      },
    },
    async (req, reply) => {
      const res = await deps.passkeys.listPasskeys({ userId: req.principal!.subject });
      reply.header("cache-control", "no-store");
      return sendContent(reply, 200, { passkeys: res.passkeys.map(passkeyOut) });
    },
  );

  app.patch(
    "/activityid/v1/user/passkeys/:id",
    {
      onRequest,
      schema: {
        ...common,
        summary: "Rename a passkey",
        params: Id,
        body: PasskeyRenameBody,
        response: { 200: PasskeyContent, ...errorResponses(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const res = await deps.passkeys.renamePasskey({
        userId: req.principal!.subject,
        id: req.params.id,
        name: req.body.name,
      });
      return sendContent(reply, 200, { passkey: passkeyOut(res.passkey!) });
    },
  );

  app.delete(
    "/activityid/v1/user/passkeys/:id",
    {
      onRequest,
      schema: { ...common, summary: "Remove a passkey", params: Id, response: errorResponses(401, 404) },
    },
    async (req, reply) => {
      await deps.passkeys.deletePasskey({ userId: req.principal!.subject, id: req.params.id });
      return reply.code(204).send();
    },
  );
};

import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import type { Static } from "typebox";
import { UpdateMode, type UpdateUserResponse } from "@gatehouse/proto";
import type { Wired } from "../../deps.ts";
import { callerOf } from "../../http/app-token.ts";
import { checkCodeVerifier } from "../../http/code-verifier.ts";
import { sendContent, sendError } from "../../http/envelope.ts";
import { sendPartial } from "../../http/partial.ts";
import { userToJson } from "../../http/user-json.ts";
import { requireBearer, type BearerRule } from "../../http/bearer-guard.ts";
import { actorIdMismatch, bodyViolations } from "../../http/body-checks.ts";
import { applicationOf, userToken } from "../../http/user-token.ts";
import { errorResponses } from "../../schemas/common.ts";
import { MfaRequiredEnvelope } from "../../schemas/mfa.ts";
import {
  PatchEnvelope,
  PatchQuery,
  ReplaceEnvelope,
  UserContent,
  UserContentIncomplete,
  UserHeaders,
} from "../../schemas/user.ts";

const responses = {
  200: UserContent,
  206: UserContentIncomplete,
  304: { type: "null", description: "Nothing would change; no body" },
  ...errorResponses(400, 401, 403, 404, 416, 429, 502),
  428: MfaRequiredEnvelope,
};

interface UpdateCall {
  mode: UpdateMode;
  actorId: string;
  target: { targetUserId: string } | { targetPulseId: string };
  object: unknown;
  sourceId: string;
  contextUrl?: string;
}

/** 200 changed, 206 changed but identifiers await confirmation, 304 nothing to change. */
function sendUpdated(reply: FastifyReply, res: UpdateUserResponse) {
  if (!res.changed) return reply.code(304).header("cache-control", "no-store").send();
  const content = { user: userToJson(res.user!) };
  if (!res.pendingFields.length) return sendContent(reply, 200, content);
  return sendPartial(
    reply,
    content,
    "confirmation_pending",
    res.pendingFields.map((field) => ({ field, code: "confirmation_pending" })),
  );
}

/** The `code_verifier` query parameter when given once. */
const verifierOf = (req: FastifyRequest) => {
  const v = (req.query as Record<string, unknown> | undefined)?.code_verifier;
  return typeof v === "string" ? v : undefined;
};

/**
 * The user's token; a CHALLENGE_CODE_TOKEN needs its verifier on PATCH
 * (contract section 4: 401 without it or with a wrong one), checked with the
 * token, before the body.
 */
const updateToken: BearerRule = (p, req) => {
  const user = userToken(p, req);
  if (user !== true) return user;
  if (checkCodeVerifier(p, verifierOf(req), req.method === "PATCH") !== "refused") return true;
  return { error: "invalid_token", description: "code_verifier missing or not matching the token's code_challenge" };
};

/**
 * Replace and patch (spec endpoints 2 and 3). Checks in order: the user's
 * token and a CHALLENGE_CODE_TOKEN's verifier (401, before the body),
 * envelope (400, by the schema), actor.id against the token's application
 * or the path (400), then the users service: From an entry point of the
 * token's application (403), the target (404), its owner (403), the password
 * (403), the entry point's rules (416), the confirmation queue (502).
 */
export const updateRoutes: FastifyPluginAsyncTypebox<Wired<"users">> = async (app, deps) => {
  async function update(
    req: FastifyRequest,
    reply: FastifyReply,
    call: (p: { clientId: string; subject: string }) => UpdateCall,
  ) {
    const principal = req.principal!;
    const violations = bodyViolations(req);
    if (violations.length) return sendError(reply, "VALIDATION_FAILED", { violations });
    // Checked by the guard; "verified" lets the password be omitted (on replace a verifier is optional).
    const challenge = checkCodeVerifier(principal, verifierOf(req), req.method === "PATCH");
    const clientId = applicationOf(principal);
    const c = call({ clientId, subject: principal.subject });
    // Errors, the step-up's 428 (`content.mfa` from its MfaRequired, `object.mfaCode` required) included, are the error handler's.
    const res = await deps.users.updateUser({
      caller: callerOf(req, clientId, c.sourceId),
      mode: c.mode,
      actorUserId: principal.subject,
      ...c.target,
      object: c.object as JsonObject,
      contextUrl: c.contextUrl ?? "",
      reauthenticatedByChallenge: challenge === "verified",
    });
    return sendUpdated(reply, res);
  }

  const common = { tags: ["users"], security: [{ bearer: [] }], headers: UserHeaders, response: responses };
  const onRequest = requireBearer(deps.verifyAccessToken, updateToken);

  app.post(
    "/activityid/v1/user/update",
    {
      onRequest,
      // actor.id is the token's application.
      config: {
        bodyChecks: (req) => actorIdMismatch(req.body, req.principal ? applicationOf(req.principal) : undefined),
      },
      schema: { ...common, summary: "Replace the logged user's data", body: ReplaceEnvelope },
    },
    (req, reply) =>
      update(req, reply, (p) => ({
        mode: UpdateMode.REPLACE,
        actorId: req.body.actor.id,
        target: { targetUserId: p.subject },
        object: req.body.object,
        sourceId: req.body.source.id,
      })),
  );

  const patch =
    (target: (id: string) => UpdateCall["target"]) =>
    (req: FastifyRequest<{ Params: { id: string }; Body: Static<typeof PatchEnvelope> }>, reply: FastifyReply) =>
      update(req, reply, () => ({
        mode: UpdateMode.PATCH,
        actorId: String(req.body.actor.id),
        target: target(req.params.id),
        object: req.body.object,
        sourceId: req.body.source.id,
        contextUrl: req.body.context?.url,
      }));
  // actor.id is the path's id (object_id or pulse_id).
  const patchChecks = {
    bodyChecks: (req: FastifyRequest) => actorIdMismatch(req.body, (req.params as { id?: string }).id, true),
  };

  const params = {
    type: "object",
    properties: { id: { type: "string", minLength: 1, maxLength: 64 } },
    required: ["id"],
  } as const;
  app.patch(
    "/activityid/v1/user/update/:id",
    {
      onRequest,
      config: patchChecks,
      schema: { ...common, summary: "Patch a user by object_id", params, querystring: PatchQuery, body: PatchEnvelope },
    },
    patch((id) => ({ targetUserId: id })),
  );
  app.patch(
    "/activityid/v1/user/update/pulse-id/:id",
    {
      onRequest,
      config: patchChecks,
      schema: { ...common, summary: "Patch a user by pulse_id", params, querystring: PatchQuery, body: PatchEnvelope },
    },
    patch((id) => ({ targetPulseId: id })),
  );
};

import { create } from "@bufbuild/protobuf";
import { validationError } from "@gatehouse/errors";
import { LoginSessionSchema, ProfileIncompleteSchema, type AuthorizationRequest } from "@gatehouse/proto";
import type { EntrypointDirectory, LoginGrants, ResolvedEntrypoint } from "../ports.ts";
import { operatorEmailOf } from "../operators/console-access.ts";
import { toUser } from "../users/model.ts";
import type { LoginContext, LoginOutcomeCase } from "../flow/steps.ts";

/** What a finished login gives: a session, or the hosted login's authorization code (the same cases in LoginOutcome and ProfileIncomplete). */
export type Grant = Extract<LoginOutcomeCase, { case: "session" | "authorizationCode" }>;

/**
 * The hosted login's authorization request must be for the application the
 * login is for (the caller's, which owns the entry point), or for one of its
 * entry points acting as a public client (contract section 9: the login then
 * signs in as the application); the gateway has checked the rest. Checked
 * before the password: bad input changes nothing.
 */
export async function checkAuthorizationRequest(
  entrypoints: EntrypointDirectory,
  request: AuthorizationRequest | undefined,
  resolved: ResolvedEntrypoint,
): Promise<void> {
  if (!request || request.clientId === resolved.clientId) return;
  const publicClient =
    request.clientId === resolved.entrypoint.id
      ? resolved
      : request.clientId
        ? await entrypoints(request.clientId)
        : undefined;
  if (publicClient?.clientId === resolved.clientId) return;
  throw validationError([
    { field: "authorization_request.client_id", code: "invalid_value", description: "not the caller's application" },
  ]);
}

/** The session of the caller's application, or the code of the authorization request: the auth service's part. */
export async function grantOf(grants: LoginGrants, ctx: LoginContext): Promise<Grant> {
  if (ctx.authorization) {
    const operatorEmail = operatorEmailOf(ctx.authorization, ctx.user);
    return {
      case: "authorizationCode",
      value: await grants.issueCode(ctx.authorization, ctx.user.id, ctx.authenticatedAt, operatorEmail),
    };
  }
  const session = await grants.openSession(ctx.user.id, ctx.resolved.clientId);
  return { case: "session", value: create(LoginSessionSchema, { user: toUser(ctx.user), session }) };
}

/** The grant with the mandatory data still missing (fca): ProfileIncomplete, 206. */
export const profileIncomplete = (missingFields: string[], grant: Grant): LoginOutcomeCase => ({
  case: "profileIncomplete",
  value: create(ProfileIncompleteSchema, { missingFields, grant }),
});

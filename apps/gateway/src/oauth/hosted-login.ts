import type { FastifyReply, FastifyRequest } from "fastify";
import { create } from "@bufbuild/protobuf";
import { AuthorizationRequestSchema, type AuthorizationRequest } from "@gatehouse/proto";
import { showLoginError } from "../login/page-errors.ts";
import { showLoginOutcome } from "../login/outcomes.ts";
import { TEXTS } from "../pages/texts.ts";
import type { HostedApp } from "./applications.ts";
import type { PendingAuthorization } from "./form-token.ts";
import { pageLocale, sendMessage, showLogin, type HostedLoginDeps, type HostedView } from "./hosted-view.ts";

export { pageLocale, redirectToClient, sendMessage, showLogin, type HostedLoginDeps } from "./hosted-view.ts";

/** The checked authorization request the users service binds the code to. */
const authorizationRequest = (p: PendingAuthorization): AuthorizationRequest =>
  create(AuthorizationRequestSchema, { clientId: p.clientId, redirectUri: p.redirectUri, scope: p.scope, codeChallenge: p.codeChallenge, nonce: p.nonce ?? "" });

/**
 * The posted form: the login (or its MFA code) through the users service
 * as the entry point, carrying the authorization request, so that a
 * finished login is an authorization code (no session is opened for it)
 * and the answer a 303 to the exact redirect URI with `code` and `state`.
 * Every other outcome, and every error, is a page.
 */
export async function submitLogin(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  form: Record<string, string>,
) {
  const lang = pageLocale(req, pending);
  const view: HostedView = { h, req, reply, app, pending, lang };
  // A public client (an entry point id) signs its users in as its application.
  const caller = { clientId: pending.applicationId ?? pending.clientId, entrypointId: pending.entrypointId, sourceId: "unknown", clientAddress: req.ip, locale: lang };
  const authorization = authorizationRequest(pending);
  // The second step: the code for the MFA token of a 428.
  if (form.mfa_token !== undefined) {
    if (!h.deps.mfa) return sendMessage(reply, 500, lang, TEXTS[lang].unexpected);
    try {
      const res = await h.deps.mfa.completeMfaLogin({ caller, mfaToken: form.mfa_token, code: (form.code ?? "").trim(), fca: false, authorizationRequest: authorization });
      return showLoginOutcome(view, res.outcome);
    } catch (err) {
      return showLoginError(view, { email: "", mfaToken: form.mfa_token }, err);
    }
  }
  const email = (form.email ?? "").trim();
  const password = form.password ?? "";
  if (!email || !password) return showLogin(h, req, reply, app, pending, { status: 400, error: TEXTS[lang].missingCredentials, email });
  try {
    const res = await h.deps.users!.loginUser({ caller, email, password, fca: false, authorizationRequest: authorization });
    return showLoginOutcome(view, res.outcome);
  } catch (err) {
    return showLoginError(view, { email }, err);
  }
}

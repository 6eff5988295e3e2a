import type { FastifyReply, FastifyRequest } from "fastify";
import { showLoginOutcome } from "./outcomes.ts";
import { showLoginError } from "./error-pages.ts";
import type { HostedApp } from "../../oauth/applications.ts";
import { authorizationParams } from "../../oauth/authorization-request.ts";
import type { PendingAuthorization } from "./form-token.ts";
import { pageLocale, sendMessage, type HostedLoginDeps, type HostedView } from "./view.ts";
import { TEXTS } from "./texts.ts";
import { authorizationOf, callerOf } from "./context.ts";
import { submitEnrolForm } from "../mfa/enrol.ts";
import { submitFlowForm } from "../interruptions/pages.ts";
import { showLoginPage, submitCodeForm, submitLoginForm } from "../sign-in/pages.ts";
import { showRegistrationPage, submitRegistration } from "../registration/pages.ts";

/**
 * GET /oauth2/authorize with a checked request: the entry point's login
 * page, or with `prompt=create` (OpenID Connect Prompt Create) its
 * registration page.
 */
export function showEntryPage(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  raw: unknown,
) {
  const v: HostedView = { h, req, reply, app, pending, lang: pageLocale(req, pending) };
  const prompt = authorizationParams(raw).params.prompt?.split(" ") ?? [];
  return prompt.includes("create")
    ? showRegistrationPage(v, { languages: true })
    : showLoginPage(v, { languages: true });
}

/** The second step of a login with TOTP on: its code for the MFA token of the 428. */
async function submitMfa(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  if (!v.h.deps.mfa) return sendMessage(v.reply, 500, v.lang, TEXTS[v.lang].unexpected);
  try {
    const res = await v.h.deps.mfa.completeMfaLogin({
      caller: callerOf(v),
      mfaToken: form.mfa_token ?? "",
      code: (form.code ?? "").trim(),
      fca: true,
      authorizationRequest: authorizationOf(v.pending),
    });
    return await showLoginOutcome(v, res.outcome);
  } catch (err) {
    return showLoginError(v, { email: "", mfaToken: form.mfa_token }, err);
  }
}

/**
 * Every hosted form posted back to /oauth2/authorize with a genuine form
 * token (checked by the route; one from another site was refused before,
 * plugins/security-headers.ts): by its `intent`, the login (password, or a
 * code request), the code sign-in page, the registration, a page of a flow
 * (confirmation code, terms, missing data, second step), the TOTP
 * enrolment's code (./enrol-pages.ts), or the MFA code.
 */
export async function submitHostedForm(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  form: Record<string, string>,
) {
  const v: HostedView = { h, req, reply, app, pending, lang: pageLocale(req, pending) };
  if (form.mfa_token !== undefined) return submitMfa(v, form);
  switch (form.intent) {
    case "enrol":
      return submitEnrolForm(v, form);
    case "register":
      return submitRegistration(v, form);
    case "flow":
      return submitFlowForm(v, form);
    case "code":
      return submitCodeForm(v, form);
    default:
      return submitLoginForm(v, form);
  }
}

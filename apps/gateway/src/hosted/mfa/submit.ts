import type { FastifyReply } from "fastify";
import { authorizationOf, callerOf } from "../journey/context.ts";
import { showLoginError } from "../authorize/error-pages.ts";
import { sendErrorPage } from "../journey/messages.ts";
import { showLoginOutcome } from "../authorize/outcome-pages.ts";
import { AUTHORIZE_TEXTS } from "../journey/texts.ts";
import type { HostedView } from "../journey/view.ts";

/** The second step of a login with TOTP on: its code for the MFA token of the 428. */
export async function submitMfaCode(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  if (!v.h.deps.mfa) return sendErrorPage(v.reply, 500, v.lang, AUTHORIZE_TEXTS[v.lang].unexpected);
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

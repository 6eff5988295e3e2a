import type { FastifyReply } from "fastify";
import { authorizationOf, callerOf } from "../journey/context.ts";
import { sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { showLoginError, showLoginOutcome, type HostedView } from "../journey/view.ts";

/** The second step of a login with TOTP on: its code for the MFA token of the 428. */
export async function submitMfaCode(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  if (!v.h.deps.mfa) return sendErrorPage(v.reply, 500, v.lang, JOURNEY_TEXTS[v.lang].unexpected);
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

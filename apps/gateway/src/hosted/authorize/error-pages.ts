import type { FastifyReply } from "fastify";
import { errorFacts, type ErrorFacts, type Reason } from "@gatehouse/errors";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { showMfaPage } from "../mfa/code-page.ts";
import { MFA_TEXTS } from "../mfa/texts.ts";
import { showLoginPage } from "../sign-in/login-page.ts";
import { backToSignIn, sendErrorPage } from "../journey/messages.ts";
import { AUTHORIZE_TEXTS } from "../journey/texts.ts";
import type { HostedView } from "../journey/view.ts";

/** The hosted form that failed: the identifier typed (kept in the form), or the MFA token of the code page. */
export interface FailedForm {
  email: string;
  mfaToken?: string;
}

type ErrorPage = (v: HostedView, form: FailedForm, f: ErrorFacts) => FastifyReply | Promise<FastifyReply>;

const unavailable: ErrorPage = (v) => sendErrorPage(v.reply, 503, v.lang, AUTHORIZE_TEXTS[v.lang].unavailable);

// The hosted login's answer to a login that ended in an error (the JSON
// routes' answer is the error envelope of the gateway's error handler).
const ERROR_PAGES: Partial<Record<Reason, ErrorPage>> = {
  // One message whether the user exists or not (the users service keeps the timing alike too).
  INVALID_CREDENTIALS: (v, form) =>
    showLoginPage(v, { status: 401, error: AUTHORIZE_TEXTS[v.lang].wrongCredentials, value: form.email }),
  RATE_LIMITED: (v, form, f) => {
    if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
    return showLoginPage(v, { status: 429, error: AUTHORIZE_TEXTS[v.lang].tooManyAttempts, value: form.email });
  },
  // A wrong or missing code: the code page again (the users service throttles the guesses).
  MFA_CODE_INVALID: (v, form) =>
    form.mfaToken
      ? showMfaPage(v, form.mfaToken, MFA_TEXTS[v.lang].mfaWrong)
      : sendErrorPage(v.reply, 400, v.lang, AUTHORIZE_TEXTS[v.lang].unexpected),
  VALIDATION_FAILED: (v, form) =>
    form.mfaToken
      ? showMfaPage(v, form.mfaToken, MFA_TEXTS[v.lang].mfaWrong)
      : showLoginPage(v, { status: 400, error: AUTHORIZE_TEXTS[v.lang].missingCredentials, value: form.email }),
  // An operator locked the account (told only after the right password, or a passed code).
  ACCOUNT_LOCKED: (v) => sendErrorPage(v.reply, 403, v.lang, AUTHORIZE_TEXTS[v.lang].accountLocked, [backToSignIn(v)]),
  // The console signs in operators only (told after the right password, like a lock).
  NOT_AN_OPERATOR: (v) => {
    const t = AUTHORIZE_TEXTS[v.lang];
    const page = renderMessage({
      lang: v.lang,
      title: t.notOperatorTitle,
      text: t.notOperatorText,
      links: [backToSignIn(v)],
      appName: v.app.displayName,
    });
    return sendPage(v.reply, 403, page);
  },
  MFA_TOKEN_INVALID: (v) => sendErrorPage(v.reply, 400, v.lang, AUTHORIZE_TEXTS[v.lang].formExpired, [backToSignIn(v)]),
  SERVICE_UNAVAILABLE: unavailable,
  UPSTREAM_TIMEOUT: unavailable,
  STORE_UNAVAILABLE: unavailable,
};

/** The page for a hosted login that failed; anything unforeseen is logged and a 500 page. */
export function showLoginError(v: HostedView, form: FailedForm, err: unknown): FastifyReply | Promise<FastifyReply> {
  const f = errorFacts(err);
  const page = ERROR_PAGES[f.reason];
  if (page) return page(v, form, f);
  v.req.log.error({ err, reason: f.reason }, "hosted login failed");
  return sendErrorPage(v.reply, 500, v.lang, AUTHORIZE_TEXTS[v.lang].unexpected, [backToSignIn(v)]);
}

import { errorFacts, type ErrorFacts, type Reason } from "@gatehouse/errors";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { showMfaPage } from "../mfa/code-page.ts";
import { MFA_TEXTS } from "../mfa/texts.ts";
import { showLoginPage } from "../sign-in/login-page.ts";
import { backToSignIn, sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import type { FailedForm, HostedView, PageAnswer } from "../journey/view.ts";

type ErrorPage = (v: HostedView, form: FailedForm, f: ErrorFacts) => PageAnswer;

const unavailable: ErrorPage = (v) => sendErrorPage(v.reply, 503, v.lang, JOURNEY_TEXTS[v.lang].unavailable);

// The hosted login's answer to a login that ended in an error (the JSON
// routes' answer is the error envelope of the gateway's error handler).
const ERROR_PAGES: Partial<Record<Reason, ErrorPage>> = {
  // One message whether the user exists or not (the users service keeps the timing alike too).
  INVALID_CREDENTIALS: (v, form) =>
    showLoginPage(v, { status: 401, error: JOURNEY_TEXTS[v.lang].wrongCredentials, value: form.email }),
  RATE_LIMITED: (v, form, f) => {
    if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
    return showLoginPage(v, { status: 429, error: JOURNEY_TEXTS[v.lang].tooManyAttempts, value: form.email });
  },
  // A wrong or missing code: the code page again (the users service throttles the guesses).
  MFA_CODE_INVALID: (v, form) =>
    form.mfaToken
      ? showMfaPage(v, form.mfaToken, MFA_TEXTS[v.lang].mfaWrong)
      : sendErrorPage(v.reply, 400, v.lang, JOURNEY_TEXTS[v.lang].unexpected),
  VALIDATION_FAILED: (v, form) =>
    form.mfaToken
      ? showMfaPage(v, form.mfaToken, MFA_TEXTS[v.lang].mfaWrong)
      : showLoginPage(v, { status: 400, error: JOURNEY_TEXTS[v.lang].missingCredentials, value: form.email }),
  // An operator locked the account (told only after the right password, or a passed code).
  ACCOUNT_LOCKED: (v) => sendErrorPage(v.reply, 403, v.lang, JOURNEY_TEXTS[v.lang].accountLocked, [backToSignIn(v)]),
  // The console signs in operators only (told after the right password, like a lock).
  NOT_AN_OPERATOR: (v) => {
    const t = JOURNEY_TEXTS[v.lang];
    const page = renderMessage({
      lang: v.lang,
      title: t.notOperatorTitle,
      text: t.notOperatorText,
      links: [backToSignIn(v)],
      appName: v.app.displayName,
    });
    return sendPage(v.reply, 403, page);
  },
  MFA_TOKEN_INVALID: (v) => sendErrorPage(v.reply, 400, v.lang, JOURNEY_TEXTS[v.lang].formExpired, [backToSignIn(v)]),
  SERVICE_UNAVAILABLE: unavailable,
  UPSTREAM_TIMEOUT: unavailable,
  STORE_UNAVAILABLE: unavailable,
};

/** The page for a hosted login that failed; anything unforeseen is logged and a 500 page. */
export function errorPage(v: HostedView, form: FailedForm, err: unknown): PageAnswer {
  const f = errorFacts(err);
  const page = ERROR_PAGES[f.reason];
  if (page) return page(v, form, f);
  v.req.log.error({ err, reason: f.reason }, "hosted login failed");
  return sendErrorPage(v.reply, 500, v.lang, JOURNEY_TEXTS[v.lang].unexpected, [backToSignIn(v)]);
}

import type { FastifyReply } from "fastify";
import { errorFacts, type ErrorFacts, type Reason } from "@gatehouse/errors";
import { backToSignIn, sendMessage, showLogin, showMfa, type HostedView } from "./view.ts";
import { ENROL_TEXTS } from "../mfa/texts.ts";
import { sendPage } from "../kit/send.ts";
import { messagePage } from "../kit/message-page.ts";
import { TEXTS } from "./texts.ts";

/** The hosted form that failed: the identifier typed (kept in the form), or the MFA token of the code page. */
export interface FailedForm {
  email: string;
  mfaToken?: string;
}

type ErrorPage = (v: HostedView, form: FailedForm, f: ErrorFacts) => FastifyReply | Promise<FastifyReply>;

const unavailable: ErrorPage = (v) => sendMessage(v.reply, 503, v.lang, TEXTS[v.lang].unavailable);

// The hosted login's answer to a login that ended in an error (the JSON
// routes' answer is the error envelope of the gateway's error handler).
const ERROR_PAGES: Partial<Record<Reason, ErrorPage>> = {
  // One message whether the user exists or not (the users service keeps the timing alike too).
  INVALID_CREDENTIALS: (v, form) =>
    showLogin(v.h, v.req, v.reply, v.app, v.pending, {
      status: 401,
      error: TEXTS[v.lang].wrongCredentials,
      email: form.email,
    }),
  RATE_LIMITED: (v, form, f) => {
    if (f.metadata.retry_after) v.reply.header("retry-after", f.metadata.retry_after);
    return showLogin(v.h, v.req, v.reply, v.app, v.pending, {
      status: 429,
      error: TEXTS[v.lang].tooManyAttempts,
      email: form.email,
    });
  },
  // A wrong or missing code: the code page again (the users service throttles the guesses).
  MFA_CODE_INVALID: (v, form) =>
    form.mfaToken
      ? showMfa(v, form.mfaToken, TEXTS[v.lang].mfaWrong)
      : sendMessage(v.reply, 400, v.lang, TEXTS[v.lang].unexpected),
  VALIDATION_FAILED: (v, form) =>
    form.mfaToken
      ? showMfa(v, form.mfaToken, TEXTS[v.lang].mfaWrong)
      : showLogin(v.h, v.req, v.reply, v.app, v.pending, {
          status: 400,
          error: TEXTS[v.lang].missingCredentials,
          email: form.email,
        }),
  // An operator locked the account (told only after the right password, or a passed code).
  ACCOUNT_LOCKED: (v) => sendMessage(v.reply, 403, v.lang, TEXTS[v.lang].accountLocked, [backToSignIn(v)]),
  // The console signs in operators only (told after the right password, like a lock).
  NOT_AN_OPERATOR: (v) => {
    const e = ENROL_TEXTS[v.lang];
    return sendPage(
      v.reply,
      403,
      messagePage(v.lang, e.notOperatorTitle, e.notOperatorText, [backToSignIn(v)], v.app.displayName),
    );
  },
  MFA_TOKEN_INVALID: (v) => sendMessage(v.reply, 400, v.lang, TEXTS[v.lang].formExpired, [backToSignIn(v)]),
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
  return sendMessage(v.reply, 500, v.lang, TEXTS[v.lang].unexpected, [backToSignIn(v)]);
}

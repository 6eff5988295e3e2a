import type { FastifyReply, FastifyRequest } from "fastify";
import { errorFacts, type Locale } from "@gatehouse/errors";
import type { GatewayDeps } from "../deps.ts";
import { sendPage } from "../pages/html.ts";
import { loginPage, messagePage, mfaPage } from "../pages/hosted-pages.ts";
import { TEXTS } from "../pages/texts.ts";
import { RESEND_PATH } from "../routes/activityid/resend.ts";
import type { HostedApp } from "./applications.ts";
import type { FormTokens, PendingAuthorization } from "./form-token.ts";
import { withResponseParams } from "./redirect-uri.ts";

export interface HostedLoginDeps {
  deps: GatewayDeps;
  forms: FormTokens;
}

export const pageLocale = (req: FastifyRequest, pending?: PendingAuthorization): Locale => pending?.locale ?? req.locale;

/** A page-only answer (no redirect): errors before the redirect URI is trusted, expired forms, outages. */
export function sendMessage(reply: FastifyReply, status: number, lang: Locale, text: string, links: { href: string; label: string }[] = []) {
  return sendPage(reply, status, messagePage(lang, TEXTS[lang].errorTitle, text, links));
}

/** The login form for a checked authorization request, with a fresh form token. */
export function showLogin(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  opts: { status?: number; error?: string; email?: string } = {},
) {
  const lang = pageLocale(req, pending);
  const entrypoint = app.entrypoints.find((e) => e.id === pending.entrypointId);
  const formToken = h.forms.issue(req, reply, pending);
  return sendPage(
    reply,
    opts.status ?? 200,
    loginPage({ lang, appName: app.displayName || app.clientId, entrypointName: entrypoint?.displayName ?? "", formToken, ...opts }),
  );
}

/** The code form of the second step, with a fresh form token for the same authorization request. */
function showMfa(h: HostedLoginDeps, req: FastifyRequest, reply: FastifyReply, pending: PendingAuthorization, mfaToken: string, error?: string) {
  const lang = pageLocale(req, pending);
  const formToken = h.forms.issue(req, reply, pending);
  return sendPage(reply, error ? 400 : 200, mfaPage({ lang, formToken, mfaToken, error }));
}

/** The authorization response (RFC 6749 section 4.1.2; `iss` per RFC 9207) at the exact redirect URI. */
export function redirectToClient(h: HostedLoginDeps, reply: FastifyReply, status: 302 | 303, redirectUri: string, params: Record<string, string | undefined>) {
  const location = withResponseParams(redirectUri, { ...params, iss: h.deps.config.publicAuthUrl });
  return reply.code(status).headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" }).send();
}

/** The authorization request again, to start over after an interruption (relative to /oauth2/authorize). */
function restartUrl(pending: PendingAuthorization): string {
  const q = new URLSearchParams({ response_type: "code", client_id: pending.clientId, redirect_uri: pending.redirectUri, scope: pending.scope });
  if (pending.state !== undefined) q.set("state", pending.state);
  q.set("code_challenge", pending.codeChallenge);
  q.set("code_challenge_method", "S256");
  if (pending.nonce) q.set("nonce", pending.nonce);
  q.set("entrypoint", pending.entrypointId);
  if (pending.locale) q.set("ui_locales", pending.locale);
  return `authorize?${q.toString()}`;
}

/**
 * The posted form: log in through the users service as the entry point, then
 * ask the auth service for a code bound to that login and redirect (303) to
 * the exact redirect URI with `code` and `state`. Anything the login answers
 * instead is an interruption shown on a page.
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
  const t = TEXTS[lang];
  const caller = { clientId: pending.clientId, entrypointId: pending.entrypointId, sourceId: "unknown", clientAddress: req.ip, locale: lang };
  // The second step: the code for the MFA token of a 428.
  if (form.mfa_token !== undefined) {
    if (!h.deps.mfa) return sendMessage(reply, 500, lang, t.unexpected);
    try {
      const res = await h.deps.mfa.completeMfaLogin({ caller, mfaToken: form.mfa_token, code: (form.code ?? "").trim(), fca: false });
      return await issueCode(h, reply, pending, res.session?.accessToken);
    } catch (err) {
      return interrupted(h, req, reply, app, pending, "", err, form.mfa_token);
    }
  }
  const email = (form.email ?? "").trim();
  const password = form.password ?? "";
  if (!email || !password) return showLogin(h, req, reply, app, pending, { status: 400, error: t.missingCredentials, email });
  try {
    const res = await h.deps.users!.loginUser({ caller, email, password, fca: false });
    return await issueCode(h, reply, pending, res.session?.accessToken);
  } catch (err) {
    return interrupted(h, req, reply, app, pending, email, err);
  }
}

/** A finished login: a code bound to it, sent to the exact redirect URI (303). */
async function issueCode(h: HostedLoginDeps, reply: FastifyReply, pending: PendingAuthorization, loginToken: string | undefined) {
  if (!loginToken) throw new Error("the users service opened no session");
  const issued = await h.deps.auth.issueAuthorizationCode({
    loginAccessToken: loginToken,
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    scope: pending.scope,
    codeChallenge: pending.codeChallenge,
    codeChallengeMethod: "S256",
    nonce: pending.nonce ?? "",
  });
  return redirectToClient(h, reply, 303, pending.redirectUri, { code: issued.code, state: pending.state });
}

/**
 * A login that did not end in a session, by the users service's reason:
 * each interruption of the contract's order gets its page (412 resend, 428
 * code, 451 terms).
 */
function interrupted(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  email: string,
  err: unknown,
  mfaToken?: string,
) {
  const lang = pageLocale(req, pending);
  const t = TEXTS[lang];
  const f = errorFacts(err);
  switch (f.reason) {
    case "INVALID_CREDENTIALS":
      // One message whether the user exists or not (the users service keeps the timing alike too).
      return showLogin(h, req, reply, app, pending, { status: 401, error: t.wrongCredentials, email });
    // Issue 12: an operator locked the account (told only after the right password).
    case "ACCOUNT_LOCKED":
      return sendMessage(reply, 403, lang, t.accountLocked, [{ href: restartUrl(pending), label: t.backToSignIn }]);
    case "RATE_LIMITED":
      if (f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
      return showLogin(h, req, reply, app, pending, { status: 429, error: t.tooManyAttempts, email });
    case "USER_UNCONFIRMED": {
      const limited = f.metadata.subcode === "429";
      const links = [{ href: restartUrl(pending), label: t.backToSignIn }];
      if (!limited && f.metadata.resend_token) {
        links.unshift({ href: `${h.deps.config.publicBaseUrl}${RESEND_PATH}?token=${encodeURIComponent(f.metadata.resend_token)}`, label: t.resendLink });
      }
      const text = limited ? `${t.unconfirmedText} ${t.resendLimited}` : t.unconfirmedText;
      return sendPage(reply, 403, messagePage(lang, t.unconfirmedTitle, text, links));
    }
    case "MFA_REQUIRED": {
      // Enrolment needs the application (secret, authenticator); the hosted page only takes codes.
      if (f.metadata.enroll === "true" || !f.metadata.mfa_token) {
        return sendPage(reply, 428, messagePage(lang, t.mfaTitle, t.mfaEnrollText, [{ href: restartUrl(pending), label: t.backToSignIn }]));
      }
      return showMfa(h, req, reply, pending, f.metadata.mfa_token);
    }
    case "MFA_CODE_INVALID":
      return mfaToken ? showMfa(h, req, reply, pending, mfaToken, t.mfaWrong) : sendMessage(reply, 400, lang, t.unexpected);
    case "MFA_TOKEN_INVALID":
      return sendMessage(reply, 400, lang, t.formExpired, [{ href: restartUrl(pending), label: t.backToSignIn }]);
    case "TERMS_NOT_ACCEPTED": {
      const links = [{ href: restartUrl(pending), label: t.backToSignIn }];
      if (f.metadata.terms_token) {
        links.unshift({ href: `${h.deps.config.publicBaseUrl}/activityid/v1/user/terms?token=${encodeURIComponent(f.metadata.terms_token)}`, label: t.termsLink });
      }
      return sendPage(reply, 451, messagePage(lang, t.termsTitle, t.termsText, links));
    }
    case "SERVICE_UNAVAILABLE":
    case "UPSTREAM_TIMEOUT":
      return sendMessage(reply, 503, lang, t.unavailable);
    default:
      req.log.error({ err, reason: f.reason }, "hosted login failed");
      return sendMessage(reply, 500, lang, t.unexpected, [{ href: restartUrl(pending), label: t.backToSignIn }]);
  }
}

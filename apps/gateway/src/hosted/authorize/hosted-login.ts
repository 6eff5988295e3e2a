import type { FastifyReply, FastifyRequest } from "fastify";
import type { HostedApp } from "../../oauth/applications.ts";
import type { PageProblem, PendingAuthorization } from "../../oauth/authorization-request.ts";
import { errorPage } from "./error-pages.ts";
import { outcomePage } from "./outcome-pages.ts";
import { submitInterruption } from "../interruptions/submit.ts";
import { submitEnrolForm } from "../mfa/enrol.ts";
import { submitMfaCode } from "../mfa/submit.ts";
import { showRegistrationPage } from "../registration/pages.ts";
import { submitRegistration } from "../registration/submit.ts";
import { showLoginPage } from "../sign-in/login-page.ts";
import { submitPasskeyOffer } from "../passkeys/submit.ts";
import { finishUpstreamSignIn, startUpstreamSignIn } from "../social/sign-in.ts";
import { SOCIAL_TEXTS } from "../social/texts.ts";
import { upstreamCookies } from "../journey/upstream-cookie.ts";
import { submitCodeForm, submitLoginForm, submitPasskeyForm } from "../sign-in/submit.ts";
import type { HostedLoginDeps } from "../journey/deps.ts";
import { hostedDirectory } from "../journey/directory.ts";
import { formTokens } from "../journey/form-token.ts";
import { sendErrorPage } from "../journey/messages.ts";
import { JOURNEY_TEXTS } from "../journey/texts.ts";
import { pageLocale, type HostedLoginParts, type HostedView } from "../journey/view.ts";

type Submit = (v: HostedView, form: Record<string, string>) => Promise<FastifyReply>;

/** What a posted form asks for (its `intent`), and the page family that answers it (a Map: any intent may be posted). */
const SUBMITS = new Map<string, Submit>([
  ["login", submitLoginForm],
  ["code", submitCodeForm],
  ["register", submitRegistration],
  ["flow", submitInterruption],
  ["enrol", submitEnrolForm],
  ["passkey", submitPasskeyForm],
  ["passkey-offer", submitPasskeyOffer],
]);

/**
 * The hosted login of /oauth2/authorize (contract sections 7 and 8): the
 * entry point's login or registration page for a checked authorization
 * request, then every form posted back, each page ending in the next page or
 * in the redirect with the code. Built once per gateway: its form tokens and
 * its cache of the registry's answers are shared by every page.
 */
export function hostedLogin(deps: HostedLoginDeps) {
  const secureCookie = deps.config.publicAuthUrl.startsWith("https:");
  const h: HostedLoginParts = {
    deps,
    forms: formTokens(deps.hostedLoginKey, { secureCookie }),
    idp: upstreamCookies(deps.hostedLoginKey, { secureCookie }),
    directory: hostedDirectory(deps),
    outcomePage,
    errorPage,
  };
  const view = (
    req: FastifyRequest,
    reply: FastifyReply,
    app: HostedApp,
    pending: PendingAuthorization,
  ): HostedView => ({
    h,
    req,
    reply,
    app,
    pending,
    lang: pageLocale(req, pending),
  });

  return {
    /** Drops the cached registry answers on the registry's notices. */
    listen: h.directory.listen,

    /** The entry point's login page, or with `prompt=create` (OpenID Connect Prompt Create) its registration page. */
    entryPage(
      req: FastifyRequest,
      reply: FastifyReply,
      app: HostedApp,
      pending: PendingAuthorization,
      create: boolean,
    ) {
      const v = view(req, reply, app, pending);
      return create ? showRegistrationPage(v, { languages: true }) : showLoginPage(v, { languages: true });
    },

    /** The authorization request a posted form carries, when its token is genuine, current and bound to this browser. */
    pendingOf: (req: FastifyRequest, formToken: string) => h.forms.verify(req, formToken),

    /**
     * A form posted back with a genuine token (a cross-site one was refused
     * before, plugins/security-headers.ts): the MFA code when it carries an
     * MFA token, else by its `intent` (a login form has none or `login`).
     */
    submit(
      req: FastifyRequest,
      reply: FastifyReply,
      app: HostedApp,
      pending: PendingAuthorization,
      form: Record<string, string>,
    ) {
      const v = view(req, reply, app, pending);
      if (form.mfa_token !== undefined) return submitMfaCode(v, form);
      // A provider's button (contract section 11): `idp` names the provider, on the login or registration page.
      if (form.idp !== undefined) return startUpstreamSignIn(v, form);
      return (SUBMITS.get(form.intent ?? "") ?? submitLoginForm)(v, form);
    },

    /** The social sign-in this browser started (the callback's cookie, spent), when genuine. */
    upstreamOf: (req: FastifyRequest, reply: FastifyReply) => h.idp.take(req, reply),

    /** The identity provider's redirect back to {auth_url}/oauth2/idp/callback: the sign-in finished. */
    callback(
      req: FastifyRequest,
      reply: FastifyReply,
      app: HostedApp,
      pending: PendingAuthorization,
      transaction: string,
    ) {
      return finishUpstreamSignIn(view(req, reply, app, pending), transaction);
    },

    /** A callback without this browser's cookie (expired, another browser, replayed): nothing to finish. */
    upstreamExpiredPage(req: FastifyRequest, reply: FastifyReply) {
      return sendErrorPage(reply, 400, req.locale, SOCIAL_TEXTS[req.locale].expired);
    },

    /** A request that cannot be answered at its redirect URI (RFC 6749 section 4.1.2.1): said on a page. */
    problemPage: (req: FastifyRequest, reply: FastifyReply, problem: PageProblem) =>
      sendErrorPage(reply, 400, req.locale, JOURNEY_TEXTS[req.locale].problems[problem]),

    /** A form that cannot continue: a forged or expired token, an application changed since the page. */
    expiredPage(req: FastifyRequest, reply: FastifyReply, pending?: PendingAuthorization) {
      const lang = pageLocale(req, pending);
      return sendErrorPage(reply, 400, lang, JOURNEY_TEXTS[lang].formExpired);
    },

    /** The services failed: 503 when it is transient, else 500. */
    unavailablePage(req: FastifyRequest, reply: FastifyReply, status: 500 | 503) {
      const lang = pageLocale(req);
      return sendErrorPage(reply, status, lang, JOURNEY_TEXTS[lang].unavailable);
    },
  };
}

export type HostedLogin = ReturnType<typeof hostedLogin>;

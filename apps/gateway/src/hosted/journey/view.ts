import type { FastifyReply, FastifyRequest } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { LoginOutcome } from "@gatehouse/proto";
import type { HostedApp } from "../../oauth/applications.ts";
import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import type { HostedLoginDeps } from "./deps.ts";
import type { HostedDirectory } from "./directory.ts";
import type { FormTokens } from "./form-token.ts";
import type { UpstreamCookies } from "./upstream-cookie.ts";

/** A page, or the redirect that ends the login. */
export type PageAnswer = FastifyReply | Promise<FastifyReply>;

/** The hosted form that failed: the identifier typed (kept in the form), or the MFA token of the code page. */
export interface FailedForm {
  email: string;
  mfaToken?: string;
}

/**
 * What every page of the hosted login reads: its clients, the form tokens,
 * the registry's cached answers, and the two tables every form's handler
 * ends in (hosted/authorize: outcome-pages.ts, error-pages.ts). The tables
 * are handed in, not imported, because they show the families' pages: the
 * families stay below them.
 */
export interface HostedLoginParts {
  deps: HostedLoginDeps;
  forms: FormTokens;
  /** The browser's half of a social sign-in (the callback's cookie). */
  idp: UpstreamCookies;
  directory: HostedDirectory;
  outcomePage(v: HostedView, outcome: LoginOutcome | undefined): PageAnswer;
  errorPage(v: HostedView, form: FailedForm, err: unknown): PageAnswer;
}

/** One request of the hosted login: what every page of its answer needs. */
export interface HostedView {
  h: HostedLoginParts;
  req: FastifyRequest;
  reply: FastifyReply;
  app: HostedApp;
  pending: PendingAuthorization;
  lang: Locale;
  /** What the user typed as their identifier on this form (the code page names where the code went). */
  typed?: { key: string; value: string };
  /** An upstream identity waiting for this account's proof (UPSTREAM_LINK_REQUIRED): the sign-in forms carry it. */
  linkToken?: string;
}

/** The page's language: the request's `ui_locales`, else Accept-Language. */
export const pageLocale = (req: FastifyRequest, pending?: PendingAuthorization): Locale =>
  pending?.locale ?? req.locale;

/** The page (or redirect) for a login's outcome: the hosted login's outcome table. */
export const showLoginOutcome = (v: HostedView, outcome: LoginOutcome | undefined) => v.h.outcomePage(v, outcome);

/** The page for a hosted login that failed: the hosted login's error table. */
export const showLoginError = (v: HostedView, form: FailedForm, err: unknown) => v.h.errorPage(v, form, err);

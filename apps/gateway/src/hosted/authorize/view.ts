import type { FastifyReply, FastifyRequest } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { authorizeUrl } from "./context.ts";
import { showLoginPage, showMfaPage } from "../sign-in/pages.ts";
import { sendPage } from "../kit/send.ts";
import { messagePage } from "../kit/message-page.ts";
import { TEXTS } from "./texts.ts";
import type { HostedApp } from "../../oauth/applications.ts";
import type { FormTokens, PendingAuthorization } from "./form-token.ts";
import { withResponseParams } from "../../oauth/redirect-uri.ts";

// The pieces the hosted login's pages are made of: the forms (each with a
// fresh form token), message pages, and the redirect to the client.

export interface HostedLoginDeps {
  deps: GatewayDeps;
  forms: FormTokens;
}

/** One posted hosted-login form: what every page of its answer needs. */
export interface HostedView {
  h: HostedLoginDeps;
  req: FastifyRequest;
  reply: FastifyReply;
  app: HostedApp;
  pending: PendingAuthorization;
  lang: Locale;
  /** What the user typed as their identifier on this form (the code page names where the code went). */
  typed?: { key: string; value: string };
}

export const pageLocale = (req: FastifyRequest, pending?: PendingAuthorization): Locale =>
  pending?.locale ?? req.locale;

/** A page-only answer (no redirect): errors before the redirect URI is trusted, expired forms, outages. */
export function sendMessage(
  reply: FastifyReply,
  status: number,
  lang: Locale,
  text: string,
  links: { href: string; label: string }[] = [],
) {
  return sendPage(reply, status, messagePage(lang, TEXTS[lang].errorTitle, text, links));
}

/** The entry point's login page for a checked authorization request, with a fresh form token (hosted/login-pages.ts). */
export function showLogin(
  h: HostedLoginDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  app: HostedApp,
  pending: PendingAuthorization,
  opts: { status?: number; error?: string; email?: string } = {},
) {
  const v: HostedView = { h, req, reply, app, pending, lang: pageLocale(req, pending) };
  return showLoginPage(v, {
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.error ? { error: opts.error } : {}),
    ...(opts.email !== undefined ? { value: opts.email } : {}),
  });
}

/** The code form of the second step, with a fresh form token for the same authorization request. */
export function showMfa(v: HostedView, mfaToken: string, error?: string) {
  return showMfaPage(v, mfaToken, error);
}

/** The authorization response (RFC 6749 section 4.1.2; `iss` per RFC 9207) at the exact redirect URI. */
export function redirectToClient(
  h: HostedLoginDeps,
  reply: FastifyReply,
  status: 302 | 303,
  redirectUri: string,
  params: Record<string, string | undefined>,
) {
  const location = withResponseParams(redirectUri, { ...params, iss: h.deps.config.publicAuthUrl });
  return reply.code(status).headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" }).send();
}

/** The "back to sign in" link of an interruption page. */
export const backToSignIn = (v: HostedView) => ({ href: authorizeUrl(v.pending), label: TEXTS[v.lang].backToSignIn });

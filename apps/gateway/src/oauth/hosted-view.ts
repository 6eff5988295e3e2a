import type { FastifyReply, FastifyRequest } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { GatewayDeps } from "../deps.ts";
import { sendPage } from "../pages/html.ts";
import { loginPage, messagePage, mfaPage } from "../pages/hosted-pages.ts";
import { TEXTS } from "../pages/texts.ts";
import type { HostedApp } from "./applications.ts";
import type { FormTokens, PendingAuthorization } from "./form-token.ts";
import { withResponseParams } from "./redirect-uri.ts";

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
    // OpenID Connect login_hint prefills the email until the user types one.
    loginPage({ lang, appName: app.displayName || app.clientId, entrypointName: entrypoint?.displayName ?? "", formToken, email: pending.loginHint, ...opts }),
  );
}

/** The code form of the second step, with a fresh form token for the same authorization request. */
export function showMfa(v: HostedView, mfaToken: string, error?: string) {
  const formToken = v.h.forms.issue(v.req, v.reply, v.pending);
  return sendPage(v.reply, error ? 400 : 200, mfaPage({ lang: v.lang, formToken, mfaToken, error }));
}

/** The authorization response (RFC 6749 section 4.1.2; `iss` per RFC 9207) at the exact redirect URI. */
export function redirectToClient(h: HostedLoginDeps, reply: FastifyReply, status: 302 | 303, redirectUri: string, params: Record<string, string | undefined>) {
  const location = withResponseParams(redirectUri, { ...params, iss: h.deps.config.publicAuthUrl });
  return reply.code(status).headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" }).send();
}

/** The authorization request again, to start over after an interruption (relative to /oauth2/authorize). */
export function restartUrl(pending: PendingAuthorization): string {
  const q = new URLSearchParams({ response_type: "code", client_id: pending.clientId, redirect_uri: pending.redirectUri, scope: pending.scope });
  if (pending.state !== undefined) q.set("state", pending.state);
  q.set("code_challenge", pending.codeChallenge);
  q.set("code_challenge_method", "S256");
  if (pending.nonce) q.set("nonce", pending.nonce);
  q.set("entrypoint", pending.entrypointId);
  if (pending.locale) q.set("ui_locales", pending.locale);
  if (pending.loginHint) q.set("login_hint", pending.loginHint);
  return `authorize?${q.toString()}`;
}

/** The "back to sign in" link of an interruption page. */
export const backToSignIn = (v: HostedView) => ({ href: restartUrl(v.pending), label: TEXTS[v.lang].backToSignIn });

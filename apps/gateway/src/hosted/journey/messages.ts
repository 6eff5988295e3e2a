import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { authorizeUrl } from "./context.ts";
import { JOURNEY_TEXTS } from "./texts.ts";
import type { HostedView } from "./view.ts";

/** A page-only answer (no redirect): errors before the redirect URI is trusted, expired forms, outages. */
export function sendErrorPage(
  reply: FastifyReply,
  status: number,
  lang: Locale,
  text: string,
  links: { href: string; label: string }[] = [],
) {
  return sendPage(reply, status, renderMessage({ lang, title: JOURNEY_TEXTS[lang].errorTitle, text, links }));
}

/** The "back to sign in" link of an interruption page. */
export const backToSignIn = (v: HostedView) => ({
  href: authorizeUrl(v.pending),
  label: JOURNEY_TEXTS[v.lang].backToSignIn,
});

/** The page of a form that can no longer continue (the entry point is gone, the flow expired): start again. */
export function expired(v: HostedView, status = 400): FastifyReply {
  return sendErrorPage(v.reply, status, v.lang, JOURNEY_TEXTS[v.lang].formExpired, [backToSignIn(v)]);
}

/** A hosted form posted from another site (refused before its handler, plugins/security-headers.ts). */
export const crossSiteFormPage = (reply: FastifyReply, lang: Locale) =>
  sendErrorPage(reply, 403, lang, JOURNEY_TEXTS[lang].crossSite);

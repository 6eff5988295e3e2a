import type { FastifyReply } from "fastify";
import type { Locale } from "@gatehouse/errors";
import { sendErrorPage } from "../journey/messages.ts";
import { renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { SIGN_OUT_TEXTS } from "./texts.ts";

/** The page of a logout without a redirect: the user signed out. */
export const signedOutPage = (reply: FastifyReply, lang: Locale) => {
  const t = SIGN_OUT_TEXTS[lang];
  return sendPage(reply, 200, renderMessage({ lang, title: t.loggedOutTitle, text: t.loggedOutText }));
};

/** A logout request that is not valid (a bad hint, a redirect URI not registered): nothing is redirected. */
export const logoutInvalidPage = (reply: FastifyReply, lang: Locale) =>
  sendErrorPage(reply, 400, lang, SIGN_OUT_TEXTS[lang].logoutInvalid);
